CREATE TABLE "console"."sso_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"client_secret" text,
	"widens" jsonb NOT NULL,
	"summary" text NOT NULL,
	"lines" jsonb NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_at" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "sso_changes_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'DECLINED', 'WITHDRAWN'))
);
--> statement-breakpoint
ALTER TABLE "console"."sso_changes" ADD CONSTRAINT "sso_changes_proposed_by_staff_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."sso_changes" ADD CONSTRAINT "sso_changes_decided_by_staff_id_fk" FOREIGN KEY ("decided_by") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;