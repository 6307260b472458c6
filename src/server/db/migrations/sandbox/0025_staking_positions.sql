CREATE TABLE "sandbox"."staking_positions" (
	"vault_id" text NOT NULL,
	"chain" text NOT NULL,
	"asset" text NOT NULL,
	"org_id" text NOT NULL,
	"paid_until" timestamp (3) with time zone NOT NULL,
	"carry" numeric DEFAULT '0' NOT NULL,
	"next_at" timestamp (3) with time zone,
	CONSTRAINT "staking_positions_vault_id_chain_asset_pk" PRIMARY KEY("vault_id","chain","asset")
);
--> statement-breakpoint
ALTER TABLE "sandbox"."staking_positions" ADD CONSTRAINT "staking_positions_vault_id_vaults_id_fk" FOREIGN KEY ("vault_id") REFERENCES "sandbox"."vaults"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staking_positions_next_at_idx" ON "sandbox"."staking_positions" USING btree ("next_at") WHERE next_at is not null;