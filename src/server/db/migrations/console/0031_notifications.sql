CREATE TABLE "console"."notification_chat_targets" (
	"id" text PRIMARY KEY NOT NULL,
	"sub_org_id" text,
	"url" text NOT NULL,
	"format" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"created_by" text,
	CONSTRAINT "notification_chat_targets_format_in_list" CHECK ("format" IN ('SLACK', 'TEAMS'))
);
--> statement-breakpoint
CREATE TABLE "console"."notification_cursors" (
	"source" text PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."notification_preferences" (
	"staff_id" text PRIMARY KEY NOT NULL,
	"events" jsonb NOT NULL,
	"email" boolean NOT NULL,
	"digest" boolean NOT NULL,
	"digest_hour" integer NOT NULL,
	"last_digest_day" text,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console"."notification_smtp" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"security" text NOT NULL,
	"username" text,
	"password" text,
	"from_address" text NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"updated_by" text,
	CONSTRAINT "notification_smtp_security_in_list" CHECK ("security" IN ('NONE', 'STARTTLS', 'TLS'))
);
--> statement-breakpoint
CREATE TABLE "console"."notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"dedupe_key" text NOT NULL,
	"channel" text NOT NULL,
	"recipient_id" text NOT NULL,
	"recipient" text NOT NULL,
	"event" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "notifications_channel_in_list" CHECK ("channel" IN ('EMAIL', 'CHAT')),
	CONSTRAINT "notifications_event_in_list" CHECK ("event" IN ('NEEDS_APPROVAL', 'APPROVED', 'DECLINED', 'FAILED', 'STUCK', 'POLICY_CHANGED', 'NEW_ADMIN')),
	CONSTRAINT "notifications_status_in_list" CHECK ("status" IN ('PENDING', 'SENT', 'FAILED'))
);
--> statement-breakpoint
ALTER TABLE "console"."notification_preferences" ADD CONSTRAINT "notification_preferences_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_key_unique" ON "console"."notifications" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "notifications_due_idx" ON "console"."notifications" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notifications_created_idx" ON "console"."notifications" USING btree ("created_at");