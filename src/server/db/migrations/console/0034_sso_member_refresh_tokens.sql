CREATE TABLE "console"."sso_refresh_tokens" (
	"staff_id" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"refresh_token" text NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "sso_refresh_tokens_staff_id_issuer_client_id_pk" PRIMARY KEY("staff_id","issuer","client_id")
);
--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_issuer" text;--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_client_id" text;--> statement-breakpoint
ALTER TABLE "console"."sessions" ADD COLUMN "sso_access_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "console"."sso_refresh_tokens" ADD CONSTRAINT "sso_refresh_tokens_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Each live session's own refresh token becomes its member's (the latest one, under the
-- configuration in force, the only one it could be checked with), and each single
-- sign-on session is marked as begun under that configuration.
INSERT INTO "console"."sso_refresh_tokens" ("staff_id", "issuer", "client_id", "refresh_token", "updated_at")
SELECT DISTINCT ON (s."staff_id") s."staff_id", o."issuer", o."client_id", s."sso_refresh_token", s."created_at"
FROM "console"."sessions" s CROSS JOIN "console"."sso_settings" o
WHERE s."sso_refresh_token" IS NOT NULL AND s."revoked_at" IS NULL
ORDER BY s."staff_id", s."created_at" DESC;--> statement-breakpoint
UPDATE "console"."sessions" s SET "sso_issuer" = o."issuer", "sso_client_id" = o."client_id"
FROM "console"."sso_settings" o
WHERE s."sso_refresh_token" IS NOT NULL OR s."sso_access_token" IS NOT NULL;
