CREATE SCHEMA "sandbox";
--> statement-breakpoint
CREATE TABLE "sandbox"."api_users" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"api_key" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_users_api_key_unique" UNIQUE("api_key")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."assets" (
	"symbol" text NOT NULL,
	"block_chain" text NOT NULL,
	"name" text NOT NULL,
	"decimals" integer NOT NULL,
	"is_native" boolean DEFAULT false NOT NULL,
	"usd_price" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "assets_symbol_block_chain_pk" PRIMARY KEY("symbol","block_chain")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."bank_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"org_entity_id" text,
	"created_by_id" text NOT NULL,
	"status" text NOT NULL,
	"payment_method" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"routing_number" text,
	"client_bank_account_id" text,
	"bank_name" text NOT NULL,
	"street_line" text,
	"city" text,
	"state" text,
	"postal_code" text,
	"country" text NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."change_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"status" text NOT NULL,
	"approval_id" text NOT NULL,
	"approval_message" text NOT NULL,
	"created_by_id" text NOT NULL,
	"decided_by_id" text,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "change_requests_approval_id_unique" UNIQUE("approval_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox"."contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"name" text NOT NULL,
	"block_chain" text NOT NULL,
	"address" text NOT NULL,
	"status" text NOT NULL,
	"asset_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."sub_orgs" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."transaction_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"vault_id" text,
	"status" text NOT NULL,
	"category" text NOT NULL,
	"sub_category" text,
	"transaction_type" text NOT NULL,
	"block_chain" text NOT NULL,
	"asset" text,
	"amount" numeric,
	"amount_in_usd" numeric,
	"external_id" text,
	"memo" text,
	"source" jsonb,
	"destination" jsonb,
	"operations" jsonb,
	"balance_changes" jsonb,
	"fees" jsonb,
	"fee_tier" text,
	"fee_payer_id" text,
	"resource_type" text,
	"contract_data" jsonb,
	"replaces_transaction_id" text,
	"tx_hash" text,
	"nonce" integer,
	"error" text,
	"created_by_id" text,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."vault_balances" (
	"vault_id" text NOT NULL,
	"asset" text NOT NULL,
	"chain" text NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vault_balances_vault_id_asset_chain_pk" PRIMARY KEY("vault_id","asset","chain"),
	CONSTRAINT "vault_balances_non_negative" CHECK (amount >= 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox"."vaults" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"sub_org_id" text,
	"vault_name" text NOT NULL,
	"vault_type" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox"."wallets" (
	"id" text PRIMARY KEY NOT NULL,
	"vault_id" text NOT NULL,
	"blockchain" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox"."api_users" ADD CONSTRAINT "api_users_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."bank_accounts" ADD CONSTRAINT "bank_accounts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."bank_accounts" ADD CONSTRAINT "bank_accounts_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."change_requests" ADD CONSTRAINT "change_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD CONSTRAINT "contacts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."contacts" ADD CONSTRAINT "contacts_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."sub_orgs" ADD CONSTRAINT "sub_orgs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."transaction_status_events" ADD CONSTRAINT "transaction_status_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "sandbox"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD CONSTRAINT "transactions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD CONSTRAINT "transactions_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."transactions" ADD CONSTRAINT "transactions_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."vault_balances" ADD CONSTRAINT "vault_balances_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD CONSTRAINT "vaults_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "sandbox"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."vaults" ADD CONSTRAINT "vaults_sub_org_id_sub_orgs_id_fk" FOREIGN KEY ("sub_org_id") REFERENCES "sandbox"."sub_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox"."wallets" ADD CONSTRAINT "wallets_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_accounts_org_created_idx" ON "sandbox"."bank_accounts" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bank_accounts_org_status_idx" ON "sandbox"."bank_accounts" USING btree ("org_id","status");--> statement-breakpoint
CREATE INDEX "change_requests_entity_idx" ON "sandbox"."change_requests" USING btree ("entity_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_org_created_idx" ON "sandbox"."contacts" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sub_orgs_org_created_idx" ON "sandbox"."sub_orgs" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transaction_status_events_tx_idx" ON "sandbox"."transaction_status_events" USING btree ("transaction_id","at","id");--> statement-breakpoint
CREATE INDEX "transactions_org_created_idx" ON "sandbox"."transactions" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_org_status_created_idx" ON "sandbox"."transactions" USING btree ("org_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_org_category_created_idx" ON "sandbox"."transactions" USING btree ("org_id","category","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_org_vault_created_idx" ON "sandbox"."transactions" USING btree ("org_id","vault_id","created_at","id");--> statement-breakpoint
CREATE INDEX "transactions_org_asset_created_idx" ON "sandbox"."transactions" USING btree ("org_id","asset","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_org_external_id_uq" ON "sandbox"."transactions" USING btree ("org_id","external_id") WHERE external_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "transactions_tx_hash_idx" ON "sandbox"."transactions" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "transactions_replaces_idx" ON "sandbox"."transactions" USING btree ("replaces_transaction_id");--> statement-breakpoint
CREATE INDEX "vaults_org_created_idx" ON "sandbox"."vaults" USING btree ("org_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_vault_chain_uq" ON "sandbox"."wallets" USING btree ("vault_id","blockchain");