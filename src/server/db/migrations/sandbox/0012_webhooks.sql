CREATE TABLE "sandbox"."webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_seq" bigint NOT NULL,
	"transaction_id" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"give_up_at" timestamp (3) with time zone NOT NULL,
	"last_attempt_at" timestamp (3) with time zone,
	"last_status_code" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"delivered_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_state_in_list" CHECK ("state" IN ('PENDING', 'DELIVERED', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text[] NOT NULL,
	"signature_encoding" text NOT NULL,
	"verification_key" text NOT NULL,
	"enabled" boolean NOT NULL,
	"created_by" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_endpoints_signature_encoding_in_list" CHECK ("signature_encoding" IN ('ASCII_ESCAPED', 'UNESCAPED'))
);
--> statement-breakpoint
CREATE TABLE "sandbox"."webhook_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"org_id" text NOT NULL,
	"event" text NOT NULL,
	"transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"operation_sequence" integer,
	"data" jsonb NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "webhook_events_event_id_unique" UNIQUE("event_id"),
	CONSTRAINT "webhook_events_event_in_list" CHECK ("event" IN ('TRANSACTION_STATUS_CHANGED', 'TRANSACTION_OPERATION_STATUS_CHANGED'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "sandbox"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_seq_webhook_events_seq_fk" FOREIGN KEY ("event_seq") REFERENCES "sandbox"."webhook_events"("seq") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "sandbox"."webhook_deliveries" USING btree ("next_attempt_at") WHERE state = 'PENDING';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_order_idx" ON "sandbox"."webhook_deliveries" USING btree ("endpoint_id","transaction_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "sandbox"."webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_org_idx" ON "sandbox"."webhook_endpoints" USING btree ("org_id","created_at");