-- Fields the provider's SDKs require on vaults and contacts, and the
-- organization's entity (docs/api-clients.md).
-- Rows written before this migration are filled in before NOT NULL applies:
-- a contact's creator was not recorded then, so it reads "sandbox-seed".
ALTER TABLE "sandbox"."contacts" ADD COLUMN "is_smart_contract_address" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD COLUMN "is_sanctioned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD COLUMN "created_by_id" text;--> statement-breakpoint
UPDATE "sandbox"."contacts" SET "created_by_id" = 'sandbox-seed' WHERE "created_by_id" IS NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ALTER COLUMN "created_by_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD COLUMN "is_deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."organizations" ADD COLUMN "entity_id" text;--> statement-breakpoint
UPDATE "sandbox"."organizations" SET "entity_id" = 'ent_' || substr(md5("id"), 1, 12) WHERE "entity_id" IS NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."organizations" ALTER COLUMN "entity_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD COLUMN "signers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD COLUMN "viewers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD COLUMN "is_deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sandbox"."vaults" SET "updated_at" = "created_at";
