-- Wakes every console server's event stream (console/live/) when a sandbox transaction changes
-- status, whoever wrote it (a request, the lifecycle simulator's thread, another server, the
-- CLI): NOTIFY is delivered at commit, once per transaction, to each server LISTENing on
-- custody_live. The trigger writes no table (db/read-cache.ts counts writes by table).
CREATE FUNCTION "sandbox"."notify_custody_live"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('custody_live', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "transaction_status_events_notify" AFTER INSERT ON "sandbox"."transaction_status_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."notify_custody_live"();
