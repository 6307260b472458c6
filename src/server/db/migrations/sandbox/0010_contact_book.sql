ALTER TABLE "sandbox"."change_requests" ADD COLUMN "proposed_change" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD COLUMN "tags" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE INDEX "change_requests_org_type_status_created_idx" ON "sandbox"."change_requests" USING btree ("org_id","entity_type","status","created_at","entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_org_external_id_uq" ON "sandbox"."contacts" USING btree ("org_id","external_id") WHERE external_id IS NOT NULL;