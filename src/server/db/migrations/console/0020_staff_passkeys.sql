CREATE TABLE "console"."staff_passkeys" (
	"id" text PRIMARY KEY NOT NULL,
	"staff_id" text NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint NOT NULL,
	"transports" jsonb NOT NULL,
	"multi_device" boolean NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "console"."sign_in_challenges" DROP CONSTRAINT "sign_in_challenges_kind_in_list";--> statement-breakpoint
ALTER TABLE "console"."sign_in_challenges" ADD COLUMN "webauthn_challenge" text;--> statement-breakpoint
ALTER TABLE "console"."staff_passkeys" ADD CONSTRAINT "staff_passkeys_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_passkeys_credential_unique" ON "console"."staff_passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "staff_passkeys_staff_idx" ON "console"."staff_passkeys" USING btree ("staff_id");--> statement-breakpoint
ALTER TABLE "console"."sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_kind_in_list" CHECK ("kind" IN ('verify', 'enrol', 'reenrol', 'passkey'));