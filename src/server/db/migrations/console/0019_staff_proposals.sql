CREATE TABLE "console"."staff_proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"staff_id" text,
	"change" jsonb NOT NULL,
	"setup_hash" text,
	"summary" text NOT NULL,
	"proposed_by" text NOT NULL,
	"proposed_at" timestamp (3) with time zone NOT NULL,
	"status" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "staff_proposals_kind_in_list" CHECK ("kind" IN ('create', 'update', 'reset_factor')),
	CONSTRAINT "staff_proposals_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'DECLINED'))
);
--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "setup_hash" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "setup_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."staff_proposals" ADD CONSTRAINT "staff_proposals_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."staff_proposals" ADD CONSTRAINT "staff_proposals_proposed_by_staff_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."staff_proposals" ADD CONSTRAINT "staff_proposals_decided_by_staff_id_fk" FOREIGN KEY ("decided_by") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_proposals_pending" ON "console"."staff_proposals" USING btree ("status","proposed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_proposals_setup_hash_unique" ON "console"."staff_proposals" USING btree ("setup_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_setup_hash_unique" ON "console"."staff" USING btree ("setup_hash");