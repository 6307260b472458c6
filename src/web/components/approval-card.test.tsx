import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  intentDigest,
  type ApprovalCard,
  type ApprovalCardResponse,
} from '#contract/approval-card.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { installFakeApi, json } from '../test/fake-api.ts';
import { renderWithQuery } from '../test/render.tsx';
import { ApprovalCardFor, ApprovalCardView } from './approval-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SPENDER = '0x1111111111111111111111111111111111111111';

function transferCard(): ApprovalCard {
  return {
    intent: {
      kind: 'TRANSACTION',
      category: 'TRANSFER',
      source: { id: 'v-1', name: 'Treasury' },
      destination: {
        type: 'CONTACT',
        id: 'c-1',
        name: 'Acme payroll',
        address: '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd',
        blockChain: 'ETHEREUM',
        rail: null,
        last4: null,
        ours: false,
        approvedContact: true,
        approvedContactSince: '2026-01-02T03:04:05.000Z',
      },
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '0.25',
      assets: null,
      feeCeiling: { tier: 'MEDIUM', maxFee: '0.00042', asset: 'ETH', blockChain: 'ETHEREUM' },
      call: null,
      quote: null,
      rule: { name: 'Large transfers', summary: '2 approvals from admins', policyVersion: 3 },
    },
    status: {
      entityId: 'tx-1',
      state: 'PENDING',
      createdAt: '2026-01-03T10:00:00.000Z',
      computedAt: '2026-01-03T10:01:00.000Z',
      amountUsd: '750',
      priceUsd: '3000',
      feeCeilingUsd: '1.26',
      balances: [
        {
          vault: { id: 'v-1', name: 'Treasury' },
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          before: '10',
          change: '-0.25042',
          after: '9.74958',
        },
      ],
      quorum: {
        required: 2,
        blocked: false,
        approvedBy: [{ name: 'Ada Approver', at: '2026-01-03T10:00:30.000Z' }],
        waitingOn: 'waiting for one more of: Bob Admin (admins)',
      },
    },
  };
}

const answerOf = (card: ApprovalCard): ApprovalCardResponse => ({
  card,
  digest: intentDigest(card.intent),
});

/** The fact a term names, in the card's list. */
function fact(term: string): HTMLElement {
  const dt = screen.getAllByRole('term').find((t) => t.textContent === term);
  if (!dt?.nextElementSibling) throw new Error(`no fact “${term}”`);
  return dt.nextElementSibling as HTMLElement;
}

describe('the approval card', () => {
  it('shows every field of a transfer’s card as the server answered it', () => {
    const answer = answerOf(transferCard());
    render(<ApprovalCardView answer={answer} />);
    const card = screen.getByRole('region', { name: 'What you are approving' });
    expect(within(card).getByTestId('card-what')).toHaveTextContent('Transfer on Ethereum');
    expect(fact('From')).toHaveTextContent('Treasury');
    expect(fact('To')).toHaveTextContent('Acme payroll');
    expect(fact('To')).toHaveTextContent('0xabcdefabcdefabcdefabcdefabcdefabcdefabcd');
    expect(fact('To')).toHaveTextContent(/Approved contact since/);
    expect(fact('Amount')).toHaveTextContent('0.25 ETH');
    expect(fact('Amount')).toHaveTextContent('≈ 750.00 USD now (at 3,000.00 USD per ETH)');
    expect(fact('Fee ceiling')).toHaveTextContent('At most 0.00042 ETH (≈ 1.26 USD now)');
    expect(fact('Fee ceiling')).toHaveTextContent('Medium fee tier');
    expect(fact('Balances')).toHaveTextContent('Treasury, ETH (Ethereum): 10 → 9.74958 (−0.25042)');
    expect(fact('Rule')).toHaveTextContent('“Large transfers”: 2 approvals from admins');
    expect(fact('Approvals')).toHaveTextContent('1 of 2');
    expect(fact('Approvals')).toHaveTextContent('Approved by Ada Approver');
    expect(fact('Approvals')).toHaveTextContent('Waiting for one more of: Bob Admin (admins)');
    expect(screen.getByTestId('card-digest')).toHaveTextContent(
      `${answer.digest.slice(0, 8)}…${answer.digest.slice(-4)}`,
    );
    expect(screen.getByTestId('card-digest')).toHaveAttribute('title', answer.digest);
  });

  it('says when a vault does not hold what would leave it: the item would fail at signing', () => {
    const base = transferCard();
    render(
      <ApprovalCardView
        answer={answerOf({
          ...base,
          status: {
            ...base.status,
            balances: [
              {
                vault: { id: 'v-1', name: 'Treasury' },
                asset: 'ETH',
                blockChain: 'ETHEREUM',
                before: '0.1',
                change: '-0.25042',
                after: '-0.15042',
              },
            ],
          },
        })}
      />,
    );
    expect(fact('Balances')).toHaveTextContent(
      'Treasury, ETH (Ethereum): 0.1 → −0.15042 (−0.25042)',
    );
    expect(fact('Balances')).toHaveTextContent(
      'Short by 0.15042 ETH: unless it arrives first, this fails when it is signed.',
    );
  });

  it('says nothing is short when every vault holds what leaves it', () => {
    render(<ApprovalCardView answer={answerOf(transferCard())} />);
    expect(fact('Balances')).not.toHaveTextContent(/Short by/);
  });

  it('shows what a change to the console alters, line by line, before → after', () => {
    const base = transferCard();
    render(
      <ApprovalCardView
        answer={answerOf({
          ...base,
          intent: {
            ...base.intent,
            kind: 'STAFF_CHANGE',
            category: 'STAFF_CHANGE',
            source: null,
            destination: null,
            asset: null,
            blockChain: null,
            amount: null,
            feeCeiling: null,
            change: {
              summary: 'Change Cleo Initiator’s access',
              lines: [
                { label: 'Role', before: 'Initiator', after: 'Approver' },
                { label: 'Sub-organizations', before: 'Desk A', after: null },
                { label: 'Second factor', before: null, after: 'Reset' },
              ],
            },
          },
          status: { ...base.status, balances: [], amountUsd: null, feeCeilingUsd: null },
        })}
      />,
    );
    const change = fact('Change');
    expect(change).toHaveTextContent('Change Cleo Initiator’s access');
    expect(change).toHaveTextContent('Role: Initiator → Approver');
    expect(change).toHaveTextContent('Sub-organizations: Desk A → removed');
    expect(change).toHaveTextContent('Second factor: none → Reset');
  });

  it('names a member or a period it changes, never as a vault or a contact', () => {
    const base = transferCard();
    const named = (type: string, name: string, ours: boolean) =>
      answerOf({
        ...base,
        intent: {
          ...base.intent,
          kind: 'HELD',
          destination: {
            type,
            id: 'x',
            name,
            address: null,
            blockChain: null,
            rail: null,
            last4: null,
            ours,
            approvedContact: false,
            approvedContactSince: null,
          },
        },
      });
    const { rerender } = render(
      <ApprovalCardView answer={named('STAFF', 'Cleo Initiator', false)} />,
    );
    expect(screen.getByTestId('card-destination')).toHaveTextContent(/^Cleo Initiator$/);
    rerender(<ApprovalCardView answer={named('LEDGER_PERIOD', 'October 2026', true)} />);
    expect(screen.getByTestId('card-destination')).toHaveTextContent(/^October 2026$/);
    // A party money goes to still says what it is.
    rerender(<ApprovalCardView answer={named('VAULT', 'Treasury', true)} />);
    expect(screen.getByTestId('card-destination')).toHaveTextContent('TreasuryOne of our vaults');
    rerender(<ApprovalCardView answer={named('EXTERNAL_ADDRESS', 'Somewhere', false)} />);
    expect(screen.getByTestId('card-destination')).toHaveTextContent('Not an approved contact');
  });

  it('shows a payment run: its rows, what leaves per asset, its value, fees and rows’ digest', () => {
    const base = transferCard();
    render(
      <ApprovalCardView
        answer={answerOf({
          ...base,
          intent: {
            ...base.intent,
            kind: 'PAYMENT_RUN',
            category: 'PAYMENT_RUN',
            destination: null,
            asset: null,
            amount: null,
            feeCeiling: null,
            run: {
              name: 'November vendors',
              rowCount: 400,
              rowsDigest: 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12',
              sourceVaults: [{ id: 'v-1', name: 'Treasury' }],
              totals: [{ asset: 'USDC', blockChain: 'ETHEREUM', amount: '360000' }],
              totalUsd: '360000',
              fees: [{ asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.4' }],
              feesUsd: '1200',
            },
          },
        })}
      />,
    );
    const run = fact('Payment run');
    expect(run).toHaveTextContent('November vendors: 400 rows from Treasury');
    expect(run).toHaveTextContent('360,000 USDC (Ethereum)');
    expect(run).toHaveTextContent('≈ 360,000.00 USD');
    expect(run).toHaveTextContent('Fees estimated at 0.4 ETH (Ethereum), ≈ 1,200.00 USD');
    expect(run).toHaveTextContent('Rows ab12cd34…ab12');
  });

  it('shows a contract call, a quote, a bank by rail and last 4, and a contact’s assets', () => {
    const base = transferCard();
    render(
      <ApprovalCardView
        answer={answerOf({
          ...base,
          intent: {
            ...base.intent,
            category: 'OFF_RAMP',
            destination: {
              ...base.intent.destination!,
              type: 'BANK_ACCOUNT',
              name: 'Acme LLC',
              address: null,
              rail: 'US_ACH',
              last4: '4321',
              approvedContact: false,
              approvedContactSince: null,
            },
            assets: ['ETH', 'USDC'],
            call: {
              description: 'Unlimited USDC approval to 0x1111…1111',
              contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
              function: 'approve(address,uint256)',
              spender: SPENDER,
              amount: null,
              unlimited: true,
            },
            quote: {
              quoteId: 'q-77',
              provider: 'Ramp Co',
              rate: '0.998',
              arrivesAmount: '149.7',
              arrivesAsset: 'USD',
              expiresAt: '2026-01-03T10:10:00.000Z',
            },
          },
          status: { ...base.status, quorum: null },
        })}
      />,
    );
    expect(fact('To')).toHaveTextContent('Acme LLC');
    expect(fact('To')).toHaveTextContent('US ACH ending 4321');
    expect(fact('Call')).toHaveTextContent('Unlimited USDC approval to 0x1111…1111');
    expect(fact('Call')).toHaveTextContent(`Spender ${SPENDER}`);
    expect(fact('Call')).toHaveTextContent('Unlimited: the spender may take every token, for ever');
    expect(fact('Quote')).toHaveTextContent('Ramp Co, rate 0.998');
    expect(fact('Quote')).toHaveTextContent('Arrives 149.7 USD');
    expect(fact('Quote')).toHaveTextContent('Quote q-77');
    expect(fact('Quote')).toHaveTextContent(/Expires/);
    expect(fact('Assets')).toHaveTextContent('ETH, USDC');
    expect(screen.queryByText('Approvals')).toBeNull();
  });

  it('reads an item’s card from the server', async () => {
    const answer = answerOf(transferCard());
    installFakeApi({ [pathOf(approvalCard, { entityId: 'tx-1' })]: () => json(answer) });
    renderWithQuery(<ApprovalCardFor entityId="tx-1" />);
    expect(await screen.findByTestId('card-rule')).toHaveTextContent(
      '“Large transfers”: 2 approvals from admins',
    );
  });
});
