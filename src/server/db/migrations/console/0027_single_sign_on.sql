CREATE TABLE "console"."scim_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"display_name" text NOT NULL,
	"external_id" text,
	"member_ids" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."scim_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" text,
	"last_used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "console"."sso_group_roles" (
	"group_name" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"sub_org_ids" jsonb,
	CONSTRAINT "sso_group_roles_role_in_list" CHECK ("role" IN ('viewer', 'initiator', 'approver', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "console"."sso_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"label" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"groups_claim" text NOT NULL,
	"scopes" text NOT NULL,
	"password_sign_in" text NOT NULL,
	"break_glass_email" text,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" text,
	CONSTRAINT "sso_settings_password_sign_in_in_list" CHECK ("password_sign_in" IN ('everyone', 'break_glass'))
);
--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_refresh_token" text;--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_access_token" text;--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_checked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "idp_subject" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "provisioned_by" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "scim_external_id" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "scim_active" boolean;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_groups_display_name_unique" ON "console"."scim_groups" USING btree ("display_name");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_tokens_token_hash_unique" ON "console"."scim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_idp_subject_unique" ON "console"."staff" USING btree ("idp_subject");--> statement-breakpoint
ALTER TABLE "console"."staff" ADD CONSTRAINT "staff_provisioned_by_in_list" CHECK ("provisioned_by" IN ('oidc', 'scim'));