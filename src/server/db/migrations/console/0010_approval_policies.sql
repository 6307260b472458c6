CREATE TABLE "console"."approval_policies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"version" integer,
	"status" text NOT NULL,
	"document" jsonb NOT NULL,
	"revision" integer NOT NULL,
	"based_on" integer,
	"editor_ids" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"published_by" text,
	"published_at" timestamp (3) with time zone,
	CONSTRAINT "approval_policies_kind_in_list" CHECK ("kind" IN ('transactions', 'accounts')),
	CONSTRAINT "approval_policies_status_in_list" CHECK ("status" IN ('DRAFT', 'ACTIVE', 'RETIRED'))
);
--> statement-breakpoint
ALTER TABLE "console"."approval_policies" ADD CONSTRAINT "approval_policies_published_by_staff_id_fk" FOREIGN KEY ("published_by") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_policies_version_unique" ON "console"."approval_policies" USING btree ("kind","version");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_policies_one_draft" ON "console"."approval_policies" USING btree ("kind") WHERE "console"."approval_policies"."status" = 'DRAFT';--> statement-breakpoint
CREATE UNIQUE INDEX "approval_policies_one_active" ON "console"."approval_policies" USING btree ("kind") WHERE "console"."approval_policies"."status" = 'ACTIVE';