ALTER TABLE "console"."payment_run_schedules" ADD COLUMN "pre_approval" jsonb;--> statement-breakpoint
ALTER TABLE "console"."payment_runs" ADD COLUMN "pre_approved" jsonb;