CREATE TABLE "sandbox"."ledger_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"vault_id" text NOT NULL,
	"asset" text NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric NOT NULL,
	"balance_after" numeric NOT NULL,
	"usd_price" numeric NOT NULL,
	"transaction_id" text,
	"counterparty" jsonb,
	"reference" text,
	"memo" text,
	"at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "ledger_movements_kind_in_list" CHECK ("kind" IN ('AMOUNT', 'FEE', 'REWARD', 'ADJUSTMENT'))
);
--> statement-breakpoint
ALTER TABLE "sandbox"."ledger_movements" ADD CONSTRAINT "ledger_movements_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_movements_vault_at_idx" ON "sandbox"."ledger_movements" USING btree ("vault_id","at","id");--> statement-breakpoint
CREATE INDEX "ledger_movements_org_at_idx" ON "sandbox"."ledger_movements" USING btree ("org_id","at","id");--> statement-breakpoint
-- A database made before the ledger: each balance it holds opens the vault's ledger as an adjustment, so balances stay the sum of movements.
INSERT INTO "sandbox"."ledger_movements" ("org_id", "vault_id", "asset", "chain", "kind", "amount", "balance_after", "usd_price", "memo", "at")
SELECT v."org_id", b."vault_id", b."asset", b."chain", 'ADJUSTMENT', b."amount", b."amount", COALESCE(a."usd_price", 0), 'opening balance', b."updated_at"
FROM "sandbox"."vault_balances" b
JOIN "sandbox"."vaults" v ON v."id" = b."vault_id"
LEFT JOIN "sandbox"."assets" a ON a."symbol" = b."asset" AND a."block_chain" = b."chain"
WHERE b."amount" <> 0
ORDER BY b."vault_id", b."asset", b."chain";
