-- Before a landing replacement failed its whole chain, replacing A
-- with B and B with C left A SUBMITTED, parked and holding its amount, once
-- C landed. Every transaction parked in SUBMITTED whose replacements have all
-- ended is put back on the simulator's schedule (due at once: its last
-- change); its next step fails it, naming the one that took its nonce, and
-- releases its holds, or lets it land when none did (engine/steps.ts).
UPDATE "sandbox"."transactions" AS "parked"
SET "next_step_at" = "parked"."updated_at"
WHERE "parked"."status" = 'SUBMITTED'
  AND "parked"."next_step_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "sandbox"."transactions" AS "r"
    WHERE "r"."replaces_transaction_id" = "parked"."id"
  )
  AND NOT EXISTS (
    SELECT 1 FROM "sandbox"."transactions" AS "r"
    WHERE "r"."replaces_transaction_id" = "parked"."id"
      AND "r"."status" NOT IN ('COMPLETED', 'FAILED', 'DECLINED')
  );
