CREATE TABLE "sandbox"."used_token_ids" (
	"jti" text PRIMARY KEY NOT NULL,
	"api_user_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."change_requests" ADD COLUMN "created_by_type" text DEFAULT 'API_USER' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."change_requests" ADD COLUMN "decided_by_type" text;--> statement-breakpoint
ALTER TABLE "sandbox"."organizations" ADD COLUMN "api_user_self_approval" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "created_by_type" text;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "next_step_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD COLUMN "simulation" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox"."vault_balances" ADD COLUMN "held" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "used_token_ids_expires_idx" ON "sandbox"."used_token_ids" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "transactions_next_step_idx" ON "sandbox"."transactions" USING btree ("next_step_at") WHERE next_step_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."vault_balances" ADD CONSTRAINT "vault_balances_held_within_amount" CHECK (held >= 0 AND held <= amount);