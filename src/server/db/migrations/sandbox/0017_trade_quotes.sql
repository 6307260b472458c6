CREATE TABLE "sandbox"."trade_quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"vault_id" text NOT NULL,
	"trade" jsonb NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_by_transaction_id" text,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "trade" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."trade_quotes" ADD CONSTRAINT "trade_quotes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."trade_quotes" ADD CONSTRAINT "trade_quotes_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."trade_quotes" ADD CONSTRAINT "trade_quotes_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_quotes_expires_idx" ON "sandbox"."trade_quotes" USING btree ("expires_at");