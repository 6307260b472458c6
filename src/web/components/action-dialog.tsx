import type { ReactNode } from 'react';
import { describeError } from '../lib/api-errors.ts';
import { Dialog, DialogContent, DialogTrigger } from './ui/dialog.tsx';

/**
 * A dialog opened from its own button to run one mutation. Closing it
 * (Cancel, Escape, success) clears the mutation's last answer through
 * `onClosed`, so the next opening starts fresh.
 */
export function ActionDialog({
  open,
  onOpenChange,
  onClosed,
  trigger,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onClosed: () => void;
  /** The button that opens it. */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) onClosed();
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      {open ? (
        <DialogContent title={title} description={description}>
          {children}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** What the server said when the dialog's mutation failed, announced. */
export function MutationError({ error }: { error: unknown }) {
  return error ? (
    <p role="alert" className="mt-3 text-sm text-red-800">
      {describeError(error)}
    </p>
  ) : null;
}
