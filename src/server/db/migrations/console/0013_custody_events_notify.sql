-- Wakes every console server's event stream (console/live/) when a custody event is stored:
-- NOTIFY is delivered at commit, once per transaction, to each server LISTENing on
-- custody_live. The trigger writes no table (db/read-cache.ts counts writes by table).
CREATE FUNCTION "console"."notify_custody_live"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('custody_live', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "custody_events_notify" AFTER INSERT ON "console"."custody_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."notify_custody_live"();
