import { useNavigate } from '@tanstack/react-router';
import {
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { Shortcut } from './shortcuts-help.tsx';

const ShortcutsHelp = lazy(() =>
  import('./shortcuts-help.tsx').then((m) => ({ default: m.ShortcutsHelp })),
);

/**
 * Keyboard shortcuts for the frequent moves, listed behind `?`. Single
 * letters without modifiers, as mail and issue trackers use them; they never
 * fire while typing in a field, with Ctrl, Alt or Cmd held, or while a dialog
 * is open, so a shortcut can never send anything: approve and decline only
 * open their confirmation dialog. Pages add their own (`usePageShortcut`);
 * the global ones are here.
 */

interface PageShortcut extends Shortcut {
  key: string;
  run: () => void;
}

interface Registry {
  add(id: string, shortcut: PageShortcut): void;
  remove(id: string): void;
}

const ShortcutRegistry = createContext<Registry | null>(null);

const GO_TO: ReadonlyArray<{ key: string; to: string; label: string }> = [
  { key: 't', to: '/transactions', label: 'Go to transactions' },
  { key: 'a', to: '/approvals', label: 'Go to the approvals inbox' },
  { key: 'b', to: '/bank-accounts', label: 'Go to bank accounts' },
  { key: 'l', to: '/audit', label: 'Go to the audit log' },
];

export const GLOBAL_SHORTCUTS: readonly Shortcut[] = [
  { keys: '?', label: 'Show these shortcuts' },
  { keys: '/', label: 'Focus the first filter of the list' },
  { keys: 'j', label: 'Next row of the list' },
  { keys: 'k', label: 'Previous row of the list' },
  ...GO_TO.map(({ key, label }) => ({ keys: `g then ${key}`, label })),
];

/** Whether a key press belongs to what the member is typing or doing, not to a shortcut. */
function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

const dialogOpen = () => document.querySelector('[role="dialog"], [role="alertdialog"]') !== null;

/** Moves focus to the next (+1) or previous (-1) row's first link in the page's table. */
function moveRow(step: 1 | -1) {
  const rows = [...document.querySelectorAll<HTMLTableRowElement>('main table tbody tr')];
  const links = rows
    .map((row) => row.querySelector<HTMLElement>('a[href], button'))
    .filter((el): el is HTMLElement => el !== null);
  if (links.length === 0) return;
  const current = links.findIndex((link) => link.closest('tr')?.contains(document.activeElement));
  const next = current === -1 ? (step === 1 ? 0 : links.length - 1) : current + step;
  links[Math.max(0, Math.min(links.length - 1, next))]?.focus();
}

function focusFirstFilter() {
  document
    .querySelector<HTMLElement>(
      'main form[aria-label] input:not([disabled]), main form[aria-label] select:not([disabled])',
    )
    ?.focus();
}

export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [page, setPage] = useState<ReadonlyMap<string, PageShortcut>>(new Map());
  const [helpOpen, setHelpOpen] = useState(false);
  const pending = useRef<{ key: string; at: number } | null>(null);
  const registry = useMemo<Registry>(
    () => ({
      add: (id, shortcut) => setPage((old) => new Map(old).set(id, shortcut)),
      remove: (id) =>
        setPage((old) => {
          const next = new Map(old);
          next.delete(id);
          return next;
        }),
    }),
    [],
  );
  const latest = useRef(page);
  useEffect(() => {
    latest.current = page;
  }, [page]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event) || dialogOpen()) return;
      const key = event.key;
      const prefix = pending.current;
      pending.current = null;
      if (prefix && prefix.key === 'g' && event.timeStamp - prefix.at < 1500) {
        const target = GO_TO.find((g) => g.key === key);
        if (target) {
          event.preventDefault();
          void navigate({ to: target.to });
        }
        return;
      }
      if (key === 'g') {
        pending.current = { key, at: event.timeStamp };
        return;
      }
      const own = [...latest.current.values()].find((s) => s.key === key);
      if (own) {
        event.preventDefault();
        own.run();
        return;
      }
      if (key === '?') {
        event.preventDefault();
        setHelpOpen(true);
      } else if (key === '/') {
        event.preventDefault();
        focusFirstFilter();
      } else if (key === 'j' || key === 'k') {
        event.preventDefault();
        moveRow(key === 'j' ? 1 : -1);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate]);

  return (
    <ShortcutRegistry.Provider value={registry}>
      {children}
      {helpOpen ? (
        // The list's dialog is fetched the first time `?` is pressed: it and the dialog
        // library stay out of every page's first load (ARCHITECTURE.md, "First load").
        <Suspense fallback={null}>
          <ShortcutsHelp
            pageShortcuts={[...page.values()]}
            globalShortcuts={GLOBAL_SHORTCUTS}
            onClose={() => setHelpOpen(false)}
          />
        </Suspense>
      ) : null}
    </ShortcutRegistry.Provider>
  );
}

/**
 * A shortcut of the page being shown, while `enabled` (a decision only while
 * the member may make it). `run` should open a dialog or move, never send.
 */
export function usePageShortcut(key: string, label: string, run: () => void, enabled = true) {
  const registry = useContext(ShortcutRegistry);
  const id = useId();
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  }, [run]);
  useEffect(() => {
    if (!registry || !enabled) return;
    registry.add(id, { key, keys: key, label, run: () => runRef.current() });
    return () => registry.remove(id);
  }, [registry, id, key, label, enabled]);
}
