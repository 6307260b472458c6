import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UseFormReturn } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import { installFakeApi, json } from '../../../../test/fake-api.ts';
import { renderWithRouter } from '../../../../test/render.tsx';
import { CreateFormShell, type CreateFlow } from './create-flow.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const REQUEST = {
  category: 'STAKE',
  source: { type: 'VAULT', id: 'vault-1' },
  amount: '2',
  asset: 'TRX',
  blockChain: 'TRON',
  externalId: 'console-1',
} as CreateTransactionRequest;

/** The review step of a flow whose send is recorded. */
function reviewing(send: () => void): CreateFlow<Record<string, unknown>> {
  return {
    step: 'review',
    request: REQUEST,
    review: () => {},
    backToEdit: () => {},
    send,
    sending: false,
    error: null,
    formError: null,
    form: { handleSubmit: () => () => {} } as unknown as CreateFlow<
      Record<string, unknown>
    >['form'] satisfies UseFormReturn<Record<string, unknown>, unknown, CreateTransactionRequest>,
  };
}

describe('the review’s Send', () => {
  it('is held until what approvers will see is worked out, then sends', async () => {
    let answer: (response: Response) => void = () => {};
    installFakeApi({
      '/api/console/approval_cards/preview/': () => new Promise((resolve) => (answer = resolve)),
    });
    const send = vi.fn();
    const rendered = renderWithRouter(
      <CreateFormShell title="Stake" flow={reviewing(send)} fields={null} reviewRows={null} />,
    );
    await rendered.router.load();
    const button = await screen.findByRole('button', { name: 'Send transaction' });
    expect(screen.getByText('Working out the approval card…')).toBeVisible();
    expect(button).toBeDisabled();
    await userEvent.click(button);
    expect(send).not.toHaveBeenCalled();

    // Not worked out (the server judges it again when it is sent): Send is no longer held.
    answer(json({ message: 'down for a moment', code: 'UNAVAILABLE' }, 503));
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.getByText(/The approval card is not known yet/)).toBeVisible();
    await userEvent.click(button);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
