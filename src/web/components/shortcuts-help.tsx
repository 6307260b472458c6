import { useId } from 'react';
import { Dialog, DialogActions, DialogClose, DialogContent } from './ui/dialog.tsx';
import { Button } from './ui/button.tsx';

export interface Shortcut {
  /** What to press, as shown: "a", "g then a", "?". */
  keys: string;
  label: string;
}

/** The list behind `?` (shortcuts.tsx): this page's shortcuts, then the global ones. */
export function ShortcutsHelp({
  pageShortcuts,
  globalShortcuts,
  onClose,
}: {
  pageShortcuts: readonly Shortcut[];
  globalShortcuts: readonly Shortcut[];
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title="Keyboard shortcuts"
        description="They work anywhere outside a text field. Approve and decline open their confirmation; nothing is sent by a key alone."
      >
        <ShortcutList title="On this page" shortcuts={pageShortcuts} />
        <ShortcutList title="Everywhere" shortcuts={globalShortcuts} />
        <DialogActions>
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}

function ShortcutList({ title, shortcuts }: { title: string; shortcuts: readonly Shortcut[] }) {
  const id = useId();
  if (shortcuts.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mt-3">
      <h3 id={id} className="text-sm font-semibold text-slate-900">
        {title}
      </h3>
      <dl className="mt-1 grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1 text-sm">
        {shortcuts.map((s) => (
          <div key={s.keys} className="contents">
            <dt>
              <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 font-mono text-xs">
                {s.keys}
              </kbd>
            </dt>
            <dd className="text-slate-800">{s.label}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
