CREATE TABLE "console"."custody_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"transaction_id" text NOT NULL,
	"sub_org_id" text,
	"status" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "custody_events_type_in_list" CHECK ("type" IN ('TRANSACTION_STATUS_CHANGED', 'TRANSACTION_OPERATION_STATUS_CHANGED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "custody_events_event_id_key" ON "console"."custody_events" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "custody_events_received_idx" ON "console"."custody_events" USING btree ("received_at");