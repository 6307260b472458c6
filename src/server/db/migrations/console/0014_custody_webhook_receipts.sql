CREATE TABLE "console"."custody_webhook_receipts" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "custody_webhook_receipts_received_idx" ON "console"."custody_webhook_receipts" USING btree ("received_at");