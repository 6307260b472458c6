import { Link, useRouterState, type LinkProps } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

const navLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white aria-[current=page]:bg-slate-700 aria-[current=page]:text-white';

export interface NavItem {
  to: NonNullable<LinkProps['to']>;
  label: string;
  /**
   * A count beside the label (work waiting: the approvals inbox), shown when
   * above zero; `countLabel` is what a screen reader hears after the label.
   */
  count?: number | undefined;
  countLabel?: (count: number) => string;
}

function NavCount({ count, label }: { count: number; label: string }) {
  return (
    <>
      <span
        aria-hidden="true"
        data-testid="nav-count"
        className="ml-2 inline-flex min-w-5 items-center justify-center rounded-full bg-amber-300 px-1.5 text-xs font-semibold text-slate-900 tabular-nums"
      >
        {count > 99 ? '99+' : count}
      </span>
      <span className="sr-only">{`, ${label}`}</span>
    </>
  );
}

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-md bg-white px-4 py-2 font-medium text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-blue-700"
    >
      Skip to content
    </a>
  );
}

/**
 * The console's mark (public/favicon.svg), drawn in the page: as an `<img>`
 * the browser built a separate SVG document for it on every cold load
 * (17–34 ms of the main thread, traced, while the rows were being parsed).
 */
function BrandMark() {
  return (
    <svg viewBox="0 0 32 32" width={24} height={24} aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1d4ed8" />
      <path d="M16 6l8 3.2v6.1c0 5.1-3.4 9.4-8 10.7-4.6-1.3-8-5.6-8-10.7V9.2L16 6z" fill="#fff" />
      <path
        d="M12.4 15.8l2.6 2.6 4.8-5"
        fill="none"
        stroke="#1d4ed8"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** `compact`: on a phone the mark alone shows (the name is still the link's name). */
export function Brand({ to = '/', compact = false }: { to?: NavItem['to']; compact?: boolean }) {
  return (
    <Link
      to={to}
      className="flex items-center gap-2 font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
    >
      <BrandMark />
      <span className={compact ? 'max-sm:sr-only' : undefined}>Custody Console</span>
    </Link>
  );
}

/**
 * The signed-in page chrome: brand, main navigation (only what the member
 * may use), and `account` on the right (scope, member, sign-out).
 *
 * Below 1280 px it is one row: the brand, `status` (what must stay in view:
 * which custody service the console acts on) and a Menu button that shows
 * the navigation and the account below it. On a 390 px phone the whole
 * header wrapped to a third of the screen. The button is a disclosure
 * (aria-expanded, aria-controls): Escape closes it and gives focus back to
 * the button; choosing a page closes it.
 */
export function AppLayout({
  navItems,
  status,
  account,
  children,
}: {
  navItems: NavItem[];
  status?: ReactNode;
  account?: ReactNode;
  children: ReactNode;
}) {
  const panelId = useId();
  // Held disabled until the browser has taken the page over, as every control is: a tap on
  // the server's markup would open nothing.
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [openedOn, setOpenedOn] = useState(pathname);
  // A page chosen from the menu closes it (state adjusted while rendering, not in an effect).
  if (openedOn !== pathname) {
    setOpenedOn(pathname);
    setOpen(false);
  }
  const waiting = navItems.reduce((sum, item) => sum + (item.count ?? 0), 0);
  const closeAndReturn = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <Shell
      header={
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 xl:gap-x-6">
          <Brand compact />
          {status ? <div className="flex items-center xl:ml-auto">{status}</div> : null}
          <button
            ref={button}
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            disabled={!hydrated}
            onClick={() => setOpen((o) => !o)}
            className="ml-auto inline-flex h-10 items-center gap-2 rounded-md border border-slate-600 px-3 text-sm font-medium text-white hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white xl:hidden"
          >
            <svg viewBox="0 0 20 20" width={18} height={18} aria-hidden="true" focusable="false">
              <path
                d={open ? 'M5 5l10 10M15 5L5 15' : 'M3 5h14M3 10h14M3 15h14'}
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            Menu
            {waiting ? (
              <NavCount count={waiting} label={`${waiting} waiting for your decision`} />
            ) : null}
          </button>
          <div
            id={panelId}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && open) {
                event.stopPropagation();
                closeAndReturn();
              }
            }}
            className={cn(
              // From 1280 px the panel's parts sit in the header itself: the account
              // beside the brand, the navigation on a row of its own below.
              'w-full flex-col gap-3 pb-2 xl:contents',
              open ? 'flex' : 'hidden',
            )}
          >
            <nav aria-label="Main" className="xl:order-last xl:-mx-3 xl:w-full">
              <ul className="flex flex-col gap-1 xl:flex-row xl:flex-wrap">
                {navItems.map((item) => (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      className={cn(navLinkClass, 'block xl:inline-block xl:py-1.5')}
                      // The home page's path begins every other: it is current only on itself.
                      activeOptions={{ exact: item.to === '/' }}
                    >
                      {item.label}
                      {item.count ? (
                        <NavCount
                          count={item.count}
                          label={item.countLabel?.(item.count) ?? String(item.count)}
                        />
                      ) : null}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            {account ? (
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-slate-700 pt-3 xl:border-0 xl:pt-0">
                {account}
              </div>
            ) : null}
          </div>
        </div>
      }
    >
      {children}
    </Shell>
  );
}

/** Chrome for pages outside the signed-in area (sign-in, not found). */
export function PlainLayout({ children }: { children: ReactNode }) {
  return (
    <Shell
      header={
        <div className="mx-auto flex max-w-7xl items-center px-4 py-3">
          <Brand />
        </div>
      }
    >
      {children}
    </Shell>
  );
}

/**
 * After a move to another page, a keyboard or screen-reader user whose focus
 * went with the old page (a row's link, a button that is gone) lands on the
 * new page's heading, not on `<body>` at the top of the document. Focus that
 * is still on something (a navigation link) stays where it is; a change of
 * filters or page within a list is not a move.
 */
function useFocusOnPageChange(main: RefObject<HTMLElement | null>) {
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname });
  const seen = useRef(pathname);
  useEffect(() => {
    if (seen.current === pathname) return;
    seen.current = pathname;
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      // A link in the closed phone menu is connected but hidden: focus there is lost too.
      if (active && active !== document.body && active.isConnected && isShown(active)) return;
      const heading = main.current?.querySelector('h1');
      if (heading) {
        heading.tabIndex = -1;
        heading.focus();
      } else main.current?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [pathname, main]);
}

function isShown(element: Element): boolean {
  return typeof element.checkVisibility === 'function' ? element.checkVisibility() : true;
}

/** What every page sits in: the skip link, the dark header, and the main landmark it skips to. */
function Shell({ header, children }: { header: ReactNode; children: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  useFocusOnPageChange(main);
  return (
    <div className="min-h-screen bg-slate-50 text-slate-900">
      <SkipLink />
      <header className="bg-slate-900 text-white">{header}</header>
      <main
        ref={main}
        id="main"
        tabIndex={-1}
        className="mx-auto max-w-7xl px-4 py-6 focus:outline-none"
      >
        {children}
      </main>
    </div>
  );
}
