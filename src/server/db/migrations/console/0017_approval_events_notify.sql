-- Wakes every console server's event stream (capabilities/live/) when an approval event is
-- recorded, as 0013 does for custody events. The trigger writes no table (db/read-cache.ts
-- counts writes by table).
CREATE TRIGGER "approval_events_notify" AFTER INSERT ON "console"."approval_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "console"."notify_custody_live"();
