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
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onClosed: () => void;
  /** The button that opens it; none when the dialog's code loads on demand (components/on-demand.tsx). */
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  /** Where focus goes as it closes; by default back to `trigger`. */
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
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
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      {open ? (
        <DialogContent title={title} description={description} onCloseAutoFocus={onCloseAutoFocus}>
          {children}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

// For bodies of a dialog loaded on demand (on-demand.tsx), which reach them through this module.
export { DialogActions, DialogClose } from './ui/dialog.tsx';

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
