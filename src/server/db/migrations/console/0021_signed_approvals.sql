CREATE TABLE "console"."approval_signatures" (
	"id" text PRIMARY KEY NOT NULL,
	"entity_id" text NOT NULL,
	"staff_id" text NOT NULL,
	"staff_name" text NOT NULL,
	"decision" text NOT NULL,
	"decided_at" timestamp (3) with time zone NOT NULL,
	"scheme" text NOT NULL,
	"digest" text NOT NULL,
	"card" text NOT NULL,
	"nonce" text,
	"credential_id" text,
	"credential_name" text,
	"credential_kind" text,
	"public_key" text,
	"assertion" jsonb,
	"rp_id" text,
	"origin" text,
	"voided_because" text,
	"voided_at" timestamp (3) with time zone,
	CONSTRAINT "approval_signatures_decision_in_list" CHECK ("decision" IN ('APPROVED', 'REJECTED'))
);
--> statement-breakpoint
CREATE TABLE "console"."approval_signing_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"staff_id" text NOT NULL,
	"entity_id" text NOT NULL,
	"action" text NOT NULL,
	"digest" text NOT NULL,
	"card" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	CONSTRAINT "approval_signing_nonces_action_in_list" CHECK ("action" IN ('approve', 'reject'))
);
--> statement-breakpoint
ALTER TABLE "console"."approval_signatures" ADD CONSTRAINT "approval_signatures_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."approval_signing_nonces" ADD CONSTRAINT "approval_signing_nonces_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_signatures_entity_idx" ON "console"."approval_signatures" USING btree ("entity_id","decided_at");--> statement-breakpoint
CREATE INDEX "approval_signing_nonces_expires_idx" ON "console"."approval_signing_nonces" USING btree ("expires_at");