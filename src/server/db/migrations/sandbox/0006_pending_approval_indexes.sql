DROP INDEX "sandbox"."bank_accounts_org_status_idx";--> statement-breakpoint
CREATE INDEX "bank_accounts_org_status_created_idx" ON "sandbox"."bank_accounts" USING btree ("org_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "bank_accounts_pending_sub_org_created_idx" ON "sandbox"."bank_accounts" USING btree ("org_id","sub_org_id","created_at","id") WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX "transactions_pending_sub_org_created_idx" ON "sandbox"."transactions" USING btree ("org_id","sub_org_id","created_at","id") WHERE status = 'PENDING';