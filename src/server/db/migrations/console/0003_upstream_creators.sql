CREATE TABLE "console"."upstream_approvals" (
	"approval_id" text PRIMARY KEY NOT NULL,
	"entity_id" text NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."upstream_creators" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"external_id" text,
	"staff_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console"."upstream_creators" ADD CONSTRAINT "upstream_creators_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "upstream_creators_entity_unique" ON "console"."upstream_creators" USING btree ("entity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "upstream_creators_external_unique" ON "console"."upstream_creators" USING btree ("entity_type","external_id");--> statement-breakpoint
CREATE INDEX "upstream_creators_staff_idx" ON "console"."upstream_creators" USING btree ("staff_id");