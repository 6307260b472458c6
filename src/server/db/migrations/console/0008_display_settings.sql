ALTER TABLE "console"."sessions" ADD COLUMN "browser_time_zone" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "console"."staff" ADD COLUMN "color_scheme" text DEFAULT 'system' NOT NULL;