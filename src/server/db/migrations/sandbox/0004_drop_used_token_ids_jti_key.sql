-- Used token ids become keyed by (API user, jti): drizzle-kit cannot name the
-- old primary key on the jti alone, so it is dropped here, by PostgreSQL's
-- default name, before the next migration adds the pair's.
ALTER TABLE "sandbox"."used_token_ids" DROP CONSTRAINT "used_token_ids_pkey";
