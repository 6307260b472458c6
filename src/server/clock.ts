/**
 * Where the server reads the time: one clock, created by the entry point
 * (`server.ts`, the CLI) and injected into sessions, the audit log, API-client
 * tokens, the sandbox engine and the upstream client. Nothing keeps timers of
 * its own: every "when" is a timestamp compared with this clock, so tests move
 * time with a `TestClock` (`src/server/test/test-clock.ts`) instead of sleeping.
 *
 * Elapsed-time budgets (request timeouts, log durations) are not "when" and
 * use the monotonic timers instead (`performance.now()`, `AbortSignal.timeout`).
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
