CREATE TABLE "console"."approval_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"sub_org_id" text,
	"status" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "approval_events_kind_in_list" CHECK ("kind" IN ('PROPOSED', 'DECIDED', 'VOTE')),
	CONSTRAINT "approval_events_entity_type_in_list" CHECK ("entity_type" IN ('TRANSACTION', 'BANK_ACCOUNT', 'CONTACT')),
	CONSTRAINT "approval_events_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'REJECTED', 'APPROVE', 'DECLINE', 'WITHDRAWN'))
);
--> statement-breakpoint
CREATE INDEX "approval_events_at_idx" ON "console"."approval_events" USING btree ("at");