import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalSignatures } from '#contract/approval-signature.ts';
import { installFakeApi, json } from '../test/fake-api.ts';
import { renderWithQuery } from '../test/render.tsx';
import { answerOf, transferCard } from '../test/signing.ts';
import { ApprovalCardView } from './approval-card.tsx';
import { SignaturesPanel } from './signatures-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DIGEST = '3f9a12c4' + '0'.repeat(52) + 'be01';

const stored: ApprovalSignatures = {
  entityId: 'tx_1',
  currentDigest: DIGEST,
  summary: '1 of 2 signatures valid over intent 3f9a12c4…be01: Ada (security key) 14:02',
  signatures: [
    {
      decidedBy: 'Ada',
      decision: 'APPROVED',
      decidedAt: '2026-11-23T14:02:00.000Z',
      digest: DIGEST,
      credentialName: 'Ada’s key',
      credentialKind: 'security key',
      valid: true,
      problem: null,
      counts: true,
      voidedBecause: null,
    },
    {
      decidedBy: 'Ben',
      decision: 'APPROVED',
      decidedAt: '2026-11-23T14:05:00.000Z',
      digest: 'aa'.repeat(32),
      credentialName: 'Ben’s laptop',
      credentialKind: 'passkey',
      valid: false,
      problem: 'the signature does not match the stored public key',
      counts: false,
      voidedBecause: 'the fee ceiling rose from 0.0021 ETH to 0.0050 ETH',
    },
  ],
};

describe('SignaturesPanel', () => {
  it('shows the summary and each decision: passkey, validity, and whether it still counts', async () => {
    installFakeApi({ '/api/console/approval_signatures/tx_1/': () => json(stored) });
    renderWithQuery(<SignaturesPanel entityId="tx_1" />);
    const panel = await screen.findByRole('region', { name: 'Signatures' });
    expect(await within(panel).findByTestId('signatures-summary')).toHaveTextContent(
      stored.summary,
    );
    const [ada, ben] = within(panel).getAllByRole('listitem');
    expect(ada).toHaveTextContent('Approved by Ada');
    expect(ada).toHaveTextContent('Signed with Ada’s key (security key) over intent 3f9a12c4…be01');
    expect(ada).toHaveTextContent('Signature valid');
    expect(ada).toHaveTextContent('Counts toward the approval');
    expect(ben).toHaveTextContent('Signed with Ben’s laptop (passkey)');
    expect(ben).toHaveTextContent(
      'Signature not valid: the signature does not match the stored public key',
    );
    expect(ben).toHaveTextContent(
      'No longer counts: the fee ceiling rose from 0.0021 ETH to 0.0050 ETH',
    );
  });

  it('says no decision is recorded yet, and shows nothing for an item without an approval', async () => {
    installFakeApi({
      '/api/console/approval_signatures/tx_1/': () =>
        json({ ...stored, signatures: [], summary: '0 signatures' }),
    });
    renderWithQuery(<SignaturesPanel entityId="tx_1" />);
    expect(await screen.findByTestId('signatures-summary')).toHaveTextContent(
      'No decision recorded yet.',
    );
    cleanup();
    const api = installFakeApi({});
    renderWithQuery(<SignaturesPanel entityId="tx_2" />);
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    await vi.waitFor(() =>
      expect(screen.queryByText('Checking the signatures…')).not.toBeInTheDocument(),
    );
    expect(screen.queryByRole('region', { name: 'Signatures' })).not.toBeInTheDocument();
  });
});

describe('ApprovalCardView: votes that no longer count', () => {
  it('shows who, when and why a vote was voided', () => {
    const card = transferCard('tx_1');
    card.status.quorum = {
      required: 1,
      blocked: false,
      approvedBy: [],
      waitingOn: 'waiting for one more of: approvers',
      voided: [
        {
          name: 'Ada',
          at: '2026-11-23T14:02:00.000Z',
          because: 'the fee ceiling rose from 0.0021 ETH to 0.0050 ETH',
        },
      ],
    };
    renderWithQuery(<ApprovalCardView answer={answerOf(card)} />);
    const voided = screen.getByTestId('card-voided');
    expect(voided).toHaveTextContent(
      /^No longer counts: Ada’s approval \(.+\) — the fee ceiling rose from 0\.0021 ETH to 0\.0050 ETH$/,
    );
    expect(voided.querySelector('time')).toHaveAttribute('datetime', '2026-11-23T14:02:00.000Z');
    expect(screen.getByTestId('card-quorum')).toHaveTextContent('0 of 1');
  });
});
