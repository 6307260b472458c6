ALTER TABLE "sandbox"."webhook_events" DROP CONSTRAINT "webhook_events_event_in_list";--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ALTER COLUMN "transaction_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_events" ALTER COLUMN "transaction_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_events" ADD CONSTRAINT "webhook_events_event_in_list" CHECK ("event" IN ('TRANSACTION_STATUS_CHANGED', 'TRANSACTION_OPERATION_STATUS_CHANGED', 'WEBHOOK_TEST'));