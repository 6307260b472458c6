ALTER TABLE "console"."staff" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "console"."upstream_approvals" ALTER COLUMN "seen_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "console"."upstream_creators" ALTER COLUMN "created_at" DROP DEFAULT;