import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OnDemandDialog, onDemand, type OnDemand } from './on-demand.tsx';
import { Button } from './ui/button.tsx';
import { Dialog, DialogClose, DialogContent } from './ui/dialog.tsx';

afterEach(cleanup);

/** What a dialog's module answers: the dialog, opened. */
function ConfirmDialog({
  onOpenChange,
  onCloseAutoFocus,
}: {
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title="Approve this?"
        description="It moves money."
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
      </DialogContent>
    </Dialog>
  );
}
type Module = { ConfirmDialog: typeof ConfirmDialog };

/** A module fetched by hand: each fetch waits until the test settles it. */
function handFetched() {
  const fetches: Array<{ resolve: (m: Module) => void; reject: (e: Error) => void }> = [];
  const fetch = vi.fn(
    () =>
      new Promise<Module>((resolve, reject) => {
        fetches.push({ resolve, reject });
      }),
  );
  return { part: onDemand(fetch), fetch, fetches };
}

function Page({ part }: { part: OnDemand<Module> }) {
  const [open, setOpen] = useState(false);
  return (
    <OnDemandDialog
      part={part}
      open={open}
      onOpenChange={setOpen}
      trigger={<Button>Approve…</Button>}
      what="the approval"
    >
      {(m, returnFocus) => (
        <m.ConfirmDialog onOpenChange={setOpen} onCloseAutoFocus={returnFocus} />
      )}
    </OnDemandDialog>
  );
}

describe('a dialog loaded on demand', () => {
  it('is not fetched with the page, only once the member shows intent (hover or focus)', async () => {
    const { part, fetch } = handFetched();
    render(<Page part={part} />);
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.hover(screen.getByRole('button', { name: 'Approve…' }));
    expect(fetch).toHaveBeenCalledTimes(1);
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Approve…' })).toHaveFocus();
    // Asked again, the fetch already on its way is the one used.
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('opened before its code arrives says so, keeps focus on the button, opens when it comes and gives focus back when closed', async () => {
    const user = userEvent.setup();
    const { part, fetches } = handFetched();
    render(<Page part={part} />);
    const button = screen.getByRole('button', { name: 'Approve…' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    button.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Opening the approval…')).toHaveAttribute('aria-live', 'polite');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    fetches[0]?.resolve({ ConfirmDialog });
    const dialog = await screen.findByRole('dialog', { name: 'Approve this?' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
    expect(screen.queryByText('Opening the approval…')).not.toBeInTheDocument();
  });

  it('whose code fails to load says so and tries again on the next press', async () => {
    const user = userEvent.setup();
    const { part, fetch, fetches } = handFetched();
    render(<Page part={part} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    fetches[0]?.reject(new Error('network'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not open the approval: its code did not load. Check the connection and try again.',
    );
    expect(screen.getByRole('button', { name: 'Approve…' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );

    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    expect(fetch).toHaveBeenCalledTimes(2);
    fetches[1]?.resolve({ ConfirmDialog });
    expect(await screen.findByRole('dialog', { name: 'Approve this?' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
