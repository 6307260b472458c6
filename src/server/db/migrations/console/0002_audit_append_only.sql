-- The audit log is append-only: refuse UPDATE and DELETE (and TRUNCATE) at the
-- database, so no code path, present or future, can rewrite history.
CREATE FUNCTION "console"."audit_log_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'console.audit_log is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE ON "console"."audit_log"
  FOR EACH ROW EXECUTE FUNCTION "console"."audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "console"."audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."audit_log_refuse_change"();
