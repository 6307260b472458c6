import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { ConvertForm } from './convert-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const QUOTE = '/api/external/transactions/quote/';
const CREATE = '/api/external/transactions/intent/create/';
const REVIEW = '/api/console/policies/ramps/review/';

/** The policy's answer for a rule: two approvals from approvers, or a block. */
function ruling(ruleName: string, action: 'ALLOW' | 'BLOCK') {
  return {
    requirement: {
      policyVersion: 2,
      ruleId: 'r1',
      ruleName,
      outcome:
        action === 'BLOCK'
          ? { action }
          : {
              action,
              approvals: 2,
              approvers: { kinds: ['approver'], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
    },
    summary: action === 'BLOCK' ? 'Blocked' : '2 approvals from approvers',
  };
}

const account = {
  id: 'ba_1',
  status: 'APPROVED',
  accountName: 'Acme Payroll',
  bankName: 'First Bank',
  accountNumber: '•••• 6789',
  paymentMethod: 'US_ACH',
};
const pickers = { vaults: [], assets: [], accounts: [account] };

/** Three providers' prices, answered in no particular order. */
function quotes(expiresAt: string) {
  const q = (quoteId: string, sourceName: string, to: string, fee: string) => ({
    quoteId,
    sourceName,
    rate: '1.08',
    fees: { amount: fee, asset: 'EUR' },
    fromAsset: 'EUR',
    toAsset: 'USD',
    finalFromAmount: '1000',
    finalToAmount: to,
    estCompletionTimeInSec: 900,
    expiresAt,
  });
  return {
    quotes: [
      q('q_mid', 'Meridian Pay', '1074.6', '5.00'),
      q('q_best', 'Northwind Ramp', '1077.3', '2.50'),
      q('q_low', 'Harbor FX', '1070.1', '1.00'),
    ],
  };
}

async function quoteFx(
  /** A time, or one worked out as the quote is answered (so a busy machine's delay before it is not counted). */
  expiresAt: string | (() => string),
  create = () => json({ id: 'tx_ramp', status: 'PENDING' }),
  review = () => json(ruling('Default', 'ALLOW')),
) {
  const creates: Array<Record<string, unknown>> = [];
  const reviews: Array<Record<string, unknown>> = [];
  let quoteCalls = 0;
  installFakeApi({
    [QUOTE]: () => {
      quoteCalls += 1;
      return json(quotes(typeof expiresAt === 'string' ? expiresAt : expiresAt()));
    },
    [REVIEW]: (_url, init) => {
      reviews.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return review();
    },
    [CREATE]: async (_url, init) => {
      creates.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      // An answer that takes a moment: a second click lands while the first is in flight.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return create();
    },
  });
  const user = userEvent.setup();
  const { router } = renderWithRouter(<ConvertForm kind="FX" pickers={pickers} />);
  const form = await screen.findByRole('form', { name: /^FX/ });
  await user.selectOptions(within(form).getByLabelText('You pay in'), 'EUR');
  await user.selectOptions(within(form).getByLabelText('To bank account'), 'ba_1');
  // The account's rail carries one currency: chosen for the member.
  expect(within(form).getByLabelText('Paid in')).toHaveValue('USD');
  await user.type(within(form).getByLabelText('Amount (EUR)'), '1000');
  await user.click(within(form).getByRole('button', { name: 'Get quotes' }));
  await screen.findByRole('group', { name: '3 quotes, best first' });
  return { user, router, creates, reviews, quoteCalls: () => quoteCalls };
}

describe('ConvertForm', () => {
  it('asks for quotes only once the fields hold, naming the field and the rule', async () => {
    installFakeApi({});
    const user = userEvent.setup();
    renderWithRouter(<ConvertForm kind="FX" pickers={pickers} />);
    const form = await screen.findByRole('form', { name: /^FX/ });
    await user.type(within(form).getByLabelText('Amount'), '12,5');
    await user.click(within(form).getByRole('button', { name: 'Get quotes' }));
    expect(within(form).getByLabelText('You pay in')).toHaveAccessibleDescription(
      /choose the currency you pay in/,
    );
    expect(within(form).getByLabelText('Amount')).toHaveAccessibleDescription(
      /enter an amount above zero, like 12\.5, with a dot for decimals/,
    );
  });

  it('shows the quotes best first and sends the chosen one once, however often Send is pressed', async () => {
    // Valid for 45 s from the answer: the countdown read next is the quote's, not the test's set-up.
    const soon = () => new Date(Date.now() + 45_000).toISOString();
    const { user, router, creates } = await quoteFx(soon);
    const cards = screen.getAllByTestId('quote');
    expect(cards.map((c) => within(c).getByTestId('quote-arrives').textContent)).toEqual([
      '1,077.3 USD',
      '1,074.6 USD',
      '1,070.1 USD',
    ]);
    expect(within(cards[0] as HTMLElement).getByRole('radio')).toBeChecked();
    expect(cards[0]).toHaveTextContent(/Expires in (4[0-5]) s/);

    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    expect(screen.getByTestId('review-leaves')).toHaveTextContent(
      "1,000 EUR from your organization's bank",
    );
    expect(screen.getByTestId('review-arrives')).toHaveTextContent(
      '1,077.3 USD at Acme Payroll · First Bank •••• 6789 · US ACH · USD',
    );
    const send = screen.getByRole('button', { name: 'Send conversion' });
    // Two clicks before React renders again (a double click in a browser): the button is not yet disabled.
    act(() => {
      send.click();
      send.click();
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx_ramp'));
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({
      quoteId: 'q_best',
      intent: {
        source: { type: 'EXTERNAL_BANK_ACCOUNT' },
        destination: { type: 'BANK_ACCOUNT', id: 'ba_1' },
        fromAsset: 'EUR',
        toAsset: 'USD',
        fromAmount: '1000',
      },
    });
    expect(creates[0]?.externalId).toMatch(/^console-/);
  });

  it('never sends an expired quote: it asks for a new one', async () => {
    const gone = new Date(Date.now() - 1_000).toISOString();
    const { user, creates, quoteCalls } = await quoteFx(gone);
    expect(screen.getAllByTestId('quote-expiry')[0]).toHaveTextContent('Expired');

    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    await user.click(screen.getByRole('button', { name: 'Send conversion' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /This quote has expired.*Nothing was sent.*Get a new quote/,
    );
    expect(creates).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Get new quotes' }));
    await waitFor(() => expect(quoteCalls()).toBe(2));
  });

  it('a quote the server says is used is answered with a new quote, not a resend', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const { user, creates } = await quoteFx(inAMinute, () =>
      json({ message: 'quote q_best was already used', code: 'QUOTE_ALREADY_USED' }, 400),
    );
    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    await user.click(screen.getByRole('button', { name: 'Send conversion' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/already used.*Nothing was sent/);
    expect(screen.queryByRole('button', { name: 'Send conversion' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get new quotes' })).toBeInTheDocument();
    expect(creates).toHaveLength(1);
  });

  it('says which approval rule applies, asked about exactly what Send sends', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const { user, creates, reviews } = await quoteFx(inAMinute, undefined, () =>
      json(ruling('Big payouts', 'ALLOW')),
    );
    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    expect(await screen.findByText(/Needs 2 approvals from approvers/)).toHaveTextContent(
      'Needs 2 approvals from approvers (rule “Big payouts”) before anything moves.',
    );
    await user.click(screen.getByRole('button', { name: 'Send conversion' }));
    await waitFor(() => expect(creates).toHaveLength(1));
    expect(reviews).toEqual([creates[0]]);
  });

  it('a rule that blocks the conversion is named, and nothing can be sent', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const { user, creates } = await quoteFx(inAMinute, undefined, () =>
      json(ruling('No FX', 'BLOCK')),
    );
    await user.click(screen.getByRole('button', { name: 'Review the chosen quote' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not sent: the approval rule “No FX” blocks this conversion.',
    );
    expect(screen.getByTestId('review-approvals')).toHaveTextContent(
      'Blocked by the rule “No FX”: it cannot be sent.',
    );
    const send = screen.getByRole('button', { name: 'Send conversion' });
    expect(send).toBeDisabled();
    await user.click(send);
    expect(creates).toHaveLength(0);
  });
});
