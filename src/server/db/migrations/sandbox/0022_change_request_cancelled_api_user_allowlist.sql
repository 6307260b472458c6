ALTER TABLE "sandbox"."change_request_events" DROP CONSTRAINT "change_request_events_status_in_list";--> statement-breakpoint
ALTER TABLE "sandbox"."change_requests" DROP CONSTRAINT "change_requests_status_in_list";--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "allowed_cidrs" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD COLUMN "last_used_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."change_request_events" ADD CONSTRAINT "change_request_events_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'));--> statement-breakpoint
ALTER TABLE "sandbox"."change_requests" ADD CONSTRAINT "change_requests_status_in_list" CHECK ("status" IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'));