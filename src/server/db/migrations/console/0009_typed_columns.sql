ALTER TABLE "console"."audit_log" ADD CONSTRAINT "audit_log_outcome_in_list" CHECK ("outcome" IN ('success', 'denied', 'failed'));--> statement-breakpoint
ALTER TABLE "console"."sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_kind_in_list" CHECK ("kind" IN ('verify', 'enrol', 'reenrol'));--> statement-breakpoint
ALTER TABLE "console"."staff" ADD CONSTRAINT "staff_role_in_list" CHECK ("role" IN ('viewer', 'initiator', 'approver', 'admin'));--> statement-breakpoint
ALTER TABLE "console"."staff" ADD CONSTRAINT "staff_color_scheme_in_list" CHECK ("color_scheme" IN ('system', 'light', 'dark'));--> statement-breakpoint
ALTER TABLE "console"."upstream_creators" ADD CONSTRAINT "upstream_creators_entity_type_in_list" CHECK ("entity_type" IN ('TRANSACTION', 'BANK_ACCOUNT'));