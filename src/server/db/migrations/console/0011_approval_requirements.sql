CREATE TABLE "console"."approval_requirements" (
	"entity_id" text PRIMARY KEY NOT NULL,
	"entity_type" text NOT NULL,
	"requirement" jsonb NOT NULL,
	"initiator_type" text NOT NULL,
	"initiator_id" text NOT NULL,
	"initiator_role" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"settled" text,
	"sending_since" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "approval_requirements_entity_type_in_list" CHECK ("entity_type" IN ('TRANSACTION', 'BANK_ACCOUNT')),
	CONSTRAINT "approval_requirements_initiator_type_in_list" CHECK ("initiator_type" IN ('STAFF', 'API_USER')),
	CONSTRAINT "approval_requirements_settled_in_list" CHECK ("settled" IN ('APPROVED', 'DECLINED')),
	CONSTRAINT "approval_requirements_initiator_role_in_list" CHECK ("initiator_role" IN ('viewer', 'initiator', 'approver', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "console"."approval_votes" (
	"seq" bigserial NOT NULL,
	"entity_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_role" text,
	"decision" text NOT NULL,
	"reason" text,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "approval_votes_entity_id_actor_type_actor_id_pk" PRIMARY KEY("entity_id","actor_type","actor_id"),
	CONSTRAINT "approval_votes_actor_type_in_list" CHECK ("actor_type" IN ('STAFF', 'API_USER')),
	CONSTRAINT "approval_votes_decision_in_list" CHECK ("decision" IN ('APPROVE', 'DECLINE')),
	CONSTRAINT "approval_votes_actor_role_in_list" CHECK ("actor_role" IN ('viewer', 'initiator', 'approver', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "console"."approval_votes" ADD CONSTRAINT "approval_votes_entity_id_approval_requirements_entity_id_fk" FOREIGN KEY ("entity_id") REFERENCES "console"."approval_requirements"("entity_id") ON DELETE no action ON UPDATE no action;