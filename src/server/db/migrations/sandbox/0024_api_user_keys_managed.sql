ALTER TABLE "sandbox"."api_users" ADD COLUMN "scope" text DEFAULT 'create_and_approve' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "rotated_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "revoked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD CONSTRAINT "api_users_scope_in_list" CHECK ("scope" IN ('read_only', 'create', 'create_and_approve'));