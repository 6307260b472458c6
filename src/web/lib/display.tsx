import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { effectiveDisplay, type DisplaySettings } from '#contract/display.ts';

/**
 * The signed-in member's display settings (the session's `display`, see
 * contract/display.ts), for every time, date filter and the colour scheme.
 * The authenticated layout provides them from the session — on the server's
 * render as in the browser, so a server-rendered time is already in the
 * member's zone and hydration writes the same text. Outside it (sign-in
 * page, component tests): UTC and the system's scheme.
 */
const DisplayContext = createContext<DisplaySettings>(
  effectiveDisplay({ chosenTimeZone: null, browserTimeZone: null, colorScheme: 'system' }),
);

export function DisplayProvider({
  settings,
  children,
}: {
  settings: DisplaySettings | undefined;
  children: ReactNode;
}) {
  const inherited = useContext(DisplayContext);
  const value = settings ?? inherited;
  useDocumentColorScheme(value.colorScheme);
  return <DisplayContext value={value}>{children}</DisplayContext>;
}

/** The zone every time is shown in and every date filter means. */
export function useTimeZone(): string {
  return useContext(DisplayContext).timeZone;
}

/**
 * The member's scheme on `<html data-theme>` (styles.css sets `color-scheme`
 * from it). The server writes the attribute into the page it sends
 * (http/spa.ts), so the first paint is already right; this keeps it in step
 * when the member changes it, without a reload.
 */
function useDocumentColorScheme(scheme: DisplaySettings['colorScheme']): void {
  useEffect(() => {
    const root = document.documentElement;
    if (scheme === 'system') delete root.dataset.theme;
    else root.dataset.theme = scheme;
    // Signed out (the sign-in page), the system's again.
    return () => {
      delete root.dataset.theme;
    };
  }, [scheme]);
}

/** The browser's own time zone, reported at sign-in as the member's default (undefined if Intl has none). */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
