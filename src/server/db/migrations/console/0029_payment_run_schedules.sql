CREATE TABLE "console"."payment_run_occurrences" (
	"schedule_id" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL,
	"run_id" text NOT NULL,
	"handled_at" timestamp (3) with time zone,
	"failure" text,
	CONSTRAINT "payment_run_occurrences_schedule_id_due_at_pk" PRIMARY KEY("schedule_id","due_at")
);
--> statement-breakpoint
CREATE TABLE "console"."payment_run_schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sub_org_id" text,
	"created_by_id" text NOT NULL,
	"status" text NOT NULL,
	"timing" jsonb NOT NULL,
	"rows" jsonb NOT NULL,
	"next_due_at" timestamp (3) with time zone,
	"occurrences_made" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payment_run_schedules_status_in_list" CHECK ("status" IN ('ACTIVE', 'PAUSED', 'CANCELLED', 'ENDED'))
);
--> statement-breakpoint
ALTER TABLE "console"."payment_run_occurrences" ADD CONSTRAINT "payment_run_occurrences_schedule_id_payment_run_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "console"."payment_run_schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."payment_run_occurrences" ADD CONSTRAINT "payment_run_occurrences_run_id_payment_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "console"."payment_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_run_occurrences_run_id_key" ON "console"."payment_run_occurrences" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "payment_run_occurrences_unhandled_idx" ON "console"."payment_run_occurrences" USING btree ("handled_at");--> statement-breakpoint
CREATE INDEX "payment_run_schedules_due_idx" ON "console"."payment_run_schedules" USING btree ("status","next_due_at");