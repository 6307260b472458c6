CREATE TABLE "sandbox"."change_request_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"sub_org_id" text,
	"status" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "change_request_events_kind_in_list" CHECK ("kind" IN ('PROPOSED', 'DECIDED')),
	CONSTRAINT "change_request_events_entity_type_in_list" CHECK ("entity_type" IN ('BANK_ACCOUNT', 'CONTACT')),
	CONSTRAINT "change_request_events_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'REJECTED'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."change_request_events" ADD CONSTRAINT "change_request_events_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;