CREATE TABLE "console"."sign_in_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"staff_id" text NOT NULL,
	"kind" text NOT NULL,
	"pending_secret" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "console"."staff_factors" (
	"staff_id" text PRIMARY KEY NOT NULL,
	"secret" text,
	"enrolled_at" timestamp (3) with time zone,
	"last_step" bigint,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "console"."staff_recovery_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"staff_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "console"."sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."staff_factors" ADD CONSTRAINT "staff_factors_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "console"."staff_recovery_codes" ADD CONSTRAINT "staff_recovery_codes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "console"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sign_in_challenges_token_hash_unique" ON "console"."sign_in_challenges" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_staff_idx" ON "console"."sign_in_challenges" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "sign_in_challenges_expires_idx" ON "console"."sign_in_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_recovery_codes_unique" ON "console"."staff_recovery_codes" USING btree ("staff_id","code_hash");