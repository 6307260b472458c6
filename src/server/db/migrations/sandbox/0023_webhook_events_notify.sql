-- Wakes every console server's webhook dispatcher (capabilities/webhooks/sandbox/dispatcher.ts)
-- when the outbox gains events, whoever wrote them (a request, the lifecycle simulator's thread,
-- another server, the CLI): NOTIFY is delivered at commit, once per transaction, to each server
-- LISTENing on sandbox_webhooks. The trigger writes no table (db/read-cache.ts counts writes by table).
CREATE FUNCTION "sandbox"."notify_sandbox_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sandbox_webhooks', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "webhook_events_notify" AFTER INSERT ON "sandbox"."webhook_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "sandbox"."notify_sandbox_webhooks"();
