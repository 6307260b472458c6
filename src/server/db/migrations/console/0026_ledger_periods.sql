CREATE TABLE "console"."ledger_journal_mappings" (
	"org_id" text PRIMARY KEY NOT NULL,
	"mapping" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."ledger_periods" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"month" text NOT NULL,
	"time_zone" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_at" timestamp (3) with time zone NOT NULL,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	"closings" jsonb,
	"digest" text,
	CONSTRAINT "ledger_periods_status_in_list" CHECK ("status" IN ('PENDING', 'CLOSED', 'DECLINED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_periods_open_month_idx" ON "console"."ledger_periods" USING btree ("org_id","month") WHERE "console"."ledger_periods"."status" <> 'DECLINED';--> statement-breakpoint
CREATE INDEX "ledger_periods_org_closed_idx" ON "console"."ledger_periods" USING btree ("org_id","status","ends_at");