ALTER TABLE "console"."payment_run_rows" ADD COLUMN "amount_usd" text;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "attempt" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "tx_hash" text;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "fee_amount" text;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "fee_asset" text;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "fee_usd" text;--> statement-breakpoint
ALTER TABLE "console"."payment_run_rows" ADD COLUMN "completed_at" timestamp (3) with time zone;