CREATE TABLE "sandbox"."ledger_days" (
	"org_id" text NOT NULL,
	"vault_id" text NOT NULL,
	"asset" text NOT NULL,
	"chain" text NOT NULL,
	"day" date NOT NULL,
	"amounts" numeric NOT NULL,
	"fees" numeric NOT NULL,
	"closing" numeric NOT NULL,
	"last_price" numeric NOT NULL,
	"last_at" timestamp (3) with time zone NOT NULL,
	"movements" integer NOT NULL,
	CONSTRAINT "ledger_days_vault_id_asset_chain_day_pk" PRIMARY KEY("vault_id","asset","chain","day")
);
--> statement-breakpoint
ALTER TABLE "sandbox"."ledger_days" ADD CONSTRAINT "ledger_days_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_days_org_day_idx" ON "sandbox"."ledger_days" USING btree ("org_id","day");--> statement-breakpoint
-- The days of the movements already recorded, summed as the writes now keep them.
INSERT INTO "sandbox"."ledger_days" ("org_id", "vault_id", "asset", "chain", "day", "amounts", "fees", "closing", "last_price", "last_at", "movements")
SELECT d."org_id", d."vault_id", d."asset", d."chain", d."day", d."amounts", d."fees",
  sum(d."amounts" - d."fees") OVER (PARTITION BY d."vault_id", d."asset", d."chain" ORDER BY d."day"),
  d."last_price", d."last_at", d."movements"
FROM (
  SELECT m."org_id", m."vault_id", m."asset", m."chain", (m."at" AT TIME ZONE 'UTC')::date AS "day",
    COALESCE(sum(m."amount") FILTER (WHERE m."kind" <> 'FEE'), 0) AS "amounts",
    COALESCE(-sum(m."amount") FILTER (WHERE m."kind" = 'FEE'), 0) AS "fees",
    (array_agg(m."usd_price" ORDER BY m."at" DESC, m."id" DESC))[1] AS "last_price",
    max(m."at") AS "last_at", count(*)::integer AS "movements"
  FROM "sandbox"."ledger_movements" m
  GROUP BY m."org_id", m."vault_id", m."asset", m."chain", (m."at" AT TIME ZONE 'UTC')::date
) d;
