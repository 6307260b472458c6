import type { ReactNode } from 'react';
import { describeError } from '../lib/api-errors.ts';
import { Button } from './ui/button.tsx';
import { Dialog, DialogActions, DialogClose, DialogContent, DialogTrigger } from './ui/dialog.tsx';

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

/**
 * The foot of an action dialog: the mutation's refusal, announced, then
 * Cancel and the one button that runs it, disabled while it runs.
 */
export function ConfirmActions({
  mutation,
  label,
  runningLabel,
  variant = 'primary',
  cancelLabel = 'Cancel',
  onConfirm,
}: {
  mutation: { error: unknown; isPending: boolean };
  label: string;
  /** Said while it runs: "Approving…". */
  runningLabel: string;
  variant?: 'primary' | 'destructive';
  cancelLabel?: string;
  onConfirm: () => void;
}) {
  return (
    <>
      <MutationError error={mutation.error} />
      <DialogActions>
        <DialogClose asChild>
          <Button>{cancelLabel}</Button>
        </DialogClose>
        <Button variant={variant} disabled={mutation.isPending} onClick={onConfirm}>
          {mutation.isPending ? runningLabel : label}
        </Button>
      </DialogActions>
    </>
  );
}
