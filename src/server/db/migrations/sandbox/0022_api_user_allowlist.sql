ALTER TABLE "sandbox"."api_users" ADD COLUMN "allowed_cidrs" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "last_used_at" timestamp (3) with time zone;