import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False while the server renders a page and while the browser hydrates that
 * markup, true from the render after (and from the start when the page was not
 * server-rendered). Lets a value only the browser has — a date input's
 * editor — replace a neutral one without a hydration mismatch: React renders
 * the server's value first, then this hook's change re-renders. (Times need
 * none of this: both sides render them in the session's zone, lib/display.tsx.)
 * The ui controls (Button, Input, Select) stay disabled until then: a
 * server-rendered page is shown before its script runs, and a choice made in
 * that time would be lost.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
