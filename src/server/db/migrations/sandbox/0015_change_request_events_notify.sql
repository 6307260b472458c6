-- Wakes every console server's event stream (capabilities/live/) when a bank account's or a
-- contact's change request is opened or decided, as 0011 does for status changes. The trigger
-- writes no table (db/read-cache.ts counts writes by table).
CREATE TRIGGER "change_request_events_notify" AFTER INSERT ON "sandbox"."change_request_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."notify_custody_live"();
