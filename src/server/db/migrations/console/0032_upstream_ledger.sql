CREATE TABLE "console"."upstream_ledger_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"vault_id" text NOT NULL,
	"sub_org_id" text,
	"asset" text NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric NOT NULL,
	"usd_price" numeric NOT NULL,
	"transaction_id" text,
	"key" text NOT NULL,
	"counterparty" jsonb,
	"reference" text,
	"memo" text,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "upstream_ledger_movements_kind_in_list" CHECK ("kind" IN ('AMOUNT', 'FEE', 'REWARD', 'ADJUSTMENT'))
);
--> statement-breakpoint
CREATE TABLE "console"."upstream_ledger_sync" (
	"id" text PRIMARY KEY NOT NULL,
	"frontier" text,
	"resume_cursor" text,
	"syncs" integer NOT NULL,
	"known_from" timestamp (3) with time zone,
	"synced_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "upstream_ledger_movements_key_unique" ON "console"."upstream_ledger_movements" USING btree ("key");--> statement-breakpoint
CREATE INDEX "upstream_ledger_movements_vault_at_idx" ON "console"."upstream_ledger_movements" USING btree ("vault_id","at","id");--> statement-breakpoint
CREATE INDEX "upstream_ledger_movements_at_idx" ON "console"."upstream_ledger_movements" USING btree ("at","id");