ALTER TABLE "console"."approval_events" DROP CONSTRAINT "approval_events_entity_type_in_list";--> statement-breakpoint
ALTER TABLE "console"."approval_requirements" DROP CONSTRAINT "approval_requirements_entity_type_in_list";--> statement-breakpoint
ALTER TABLE "console"."approval_events" ADD CONSTRAINT "approval_events_entity_type_kind_name" CHECK ("entity_type" ~ '^[A-Z][A-Z_]{0,39}$');--> statement-breakpoint
ALTER TABLE "console"."approval_requirements" ADD CONSTRAINT "approval_requirements_entity_type_kind_name" CHECK ("entity_type" ~ '^[A-Z][A-Z_]{0,39}$');