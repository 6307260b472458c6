/* 
    Unfortunately in current drizzle-kit version we can't automatically get name for primary key.
    We are working on making it available!

    Meanwhile you can:
        1. Check pk name in your database, by running
            SELECT constraint_name FROM information_schema.table_constraints
            WHERE table_schema = 'sandbox'
                AND table_name = 'used_token_ids'
                AND constraint_type = 'PRIMARY KEY';
        2. Uncomment code below and paste pk name manually
        
    Hope to release this update as soon as possible
*/

-- ALTER TABLE "used_token_ids" DROP CONSTRAINT "<constraint_name>";--> statement-breakpoint
ALTER TABLE "sandbox"."used_token_ids" ADD CONSTRAINT "used_token_ids_api_user_id_jti_pk" PRIMARY KEY("api_user_id","jti");