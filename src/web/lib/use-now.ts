import {
  createContext,
  createElement,
  useContext,
  useSyncExternalStore,
  type ReactNode,
} from 'react';

/**
 * The time a page counts from ("updated 3 s ago", "waited 12 min"), the same
 * in a server render and in the browser's hydration of it (ARCHITECTURE.md,
 * "Server-rendered first screen").
 *
 * A server render reads the clock once (`renderedAt`) and every counting
 * component on the page renders from that instant; the instant goes to the
 * browser with the page's state (lib/server-state.ts), and the hydration
 * renders from it too, so the text matches to the character. From the render
 * after hydration on, `useNow` is the browser's clock, updated every
 * `intervalMs`. A page the browser renders alone reads its own clock from the
 * start.
 */
const RenderedAt = createContext<number | undefined>(undefined);

/** Around the app in a server render and its hydration (entry-server.tsx, main.tsx). */
export function RenderedAtProvider({ at, children }: { at: number; children: ReactNode }) {
  return createElement(RenderedAt.Provider, { value: at }, children);
}

interface Ticker {
  now: number;
  listeners: Set<() => void>;
  timer?: ReturnType<typeof setInterval>;
  subscribe: (listener: () => void) => () => void;
}

// One clock per interval, shared by every component counting at that pace.
const tickers = new Map<number, Ticker>();

function tickerFor(intervalMs: number): Ticker {
  const existing = tickers.get(intervalMs);
  if (existing) return existing;
  const ticker: Ticker = {
    now: Date.now(),
    listeners: new Set(),
    subscribe(listener) {
      ticker.listeners.add(listener);
      if (ticker.timer === undefined) {
        // Fresh when the first component starts counting: React compares this
        // with what it rendered and renders again if they differ.
        ticker.now = Date.now();
        ticker.timer = setInterval(() => {
          ticker.now = Date.now();
          for (const notify of ticker.listeners) notify();
        }, intervalMs);
      }
      return () => {
        ticker.listeners.delete(listener);
        if (ticker.listeners.size === 0 && ticker.timer !== undefined) {
          clearInterval(ticker.timer);
          ticker.timer = undefined;
        }
      };
    },
  };
  tickers.set(intervalMs, ticker);
  return ticker;
}

// The finest a counting time is shown: whole seconds.
const SHOWN_MS = 1000;

/**
 * The ticker's instant, read again while no component keeps it counting and
 * it is a second or more away from the clock (a page opened later must not
 * start from an old instant); the same value on calls in a row, as React
 * requires of a snapshot.
 */
function current(ticker: Ticker, intervalMs: number): number {
  const now = Date.now();
  if (ticker.timer === undefined && Math.abs(now - ticker.now) >= Math.min(intervalMs, SHOWN_MS))
    ticker.now = now;
  return ticker.now;
}

/**
 * Now, in milliseconds: the render's instant while the server renders a page
 * and while the browser hydrates it, then the browser's clock, again every
 * `intervalMs`.
 */
export function useNow(intervalMs: number): number {
  const renderedAt = useContext(RenderedAt);
  const ticker = tickerFor(intervalMs);
  return useSyncExternalStore(
    ticker.subscribe,
    () => current(ticker, intervalMs),
    () => renderedAt ?? current(ticker, intervalMs),
  );
}
