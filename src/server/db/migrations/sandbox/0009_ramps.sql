CREATE TABLE "sandbox"."ramp_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"kind" text NOT NULL,
	"route" jsonb NOT NULL,
	"quote" jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_by_transaction_id" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ramp_quotes_kind_in_list" CHECK ("kind" IN ('OFF_RAMP', 'ON_RAMP', 'FX'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "intent" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "quote_response" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "deposit_instructions" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "bank_account_id" text;--> statement-breakpoint
ALTER TABLE "sandbox"."ramp_quotes" ADD CONSTRAINT "ramp_quotes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."ramp_quotes" ADD CONSTRAINT "ramp_quotes_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ramp_quotes_expires_idx" ON "sandbox"."ramp_quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "transactions_org_bank_account_created_idx" ON "sandbox"."transactions" USING btree ("org_id","bank_account_id","created_at","id") WHERE bank_account_id IS NOT NULL;