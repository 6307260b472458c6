CREATE TABLE "console"."payment_run_rows" (
	"run_id" text NOT NULL,
	"index" integer NOT NULL,
	"kind" text NOT NULL,
	"source_vault_id" text NOT NULL,
	"contact_id" text,
	"address" text,
	"bank_account_id" text,
	"asset" text NOT NULL,
	"block_chain" text NOT NULL,
	"amount" text NOT NULL,
	"reference" text NOT NULL,
	"memo" text,
	"status" text NOT NULL,
	"errors" jsonb NOT NULL,
	"external_id" text NOT NULL,
	"transaction_id" text,
	"failure" text,
	CONSTRAINT "payment_run_rows_run_id_index_pk" PRIMARY KEY("run_id","index"),
	CONSTRAINT "payment_run_rows_kind_in_list" CHECK ("kind" IN ('CRYPTO', 'FIAT')),
	CONSTRAINT "payment_run_rows_status_in_list" CHECK ("status" IN ('PENDING', 'SUBMITTED', 'COMPLETED', 'FAILED', 'REFUSED', 'CANCELLED'))
);
--> statement-breakpoint
CREATE TABLE "console"."payment_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"sub_org_id" text,
	"created_by_id" text NOT NULL,
	"rows_digest" text NOT NULL,
	"errors" jsonb NOT NULL,
	"simulation" jsonb,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payment_runs_status_in_list" CHECK ("status" IN ('DRAFT', 'CHECKED', 'PENDING_APPROVAL', 'APPROVED', 'EXECUTING', 'PAUSED', 'COMPLETED', 'CANCELLED', 'PARTIALLY_FAILED', 'DECLINED'))
);
--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD CONSTRAINT "payment_run_rows_run_id_payment_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "console"."payment_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_run_rows_external_id_key" ON "console"."payment_run_rows" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "payment_run_rows_reference_idx" ON "console"."payment_run_rows" USING btree ("reference","status");--> statement-breakpoint
CREATE INDEX "payment_runs_status_idx" ON "console"."payment_runs" USING btree ("status");