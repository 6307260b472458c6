import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { evmAddressOfPublicKey, rawSigningDigest, signDigest } from '#contract/raw-signature.ts';
import type { Transaction } from '#contract/transaction.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { StatusTimeline } from './status-timeline.tsx';
import { ContractCallRows } from './contract-call-details.tsx';
import { TransactionMovements, TransactionSummary } from './transaction-facts.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const declined: Transaction = {
  id: 'tx-declined',
  status: 'DECLINED',
  category: 'TRANSFER',
  amount: '12.5',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  error: 'declined: destination not on our list',
  statusHistory: [
    { status: 'PENDING', at: '2026-11-25T10:00:00.000Z' },
    { status: 'DECLINED', at: '2026-11-25T10:05:00.000Z' },
  ],
};

function renderFacts(tx: Transaction) {
  installFakeApi({ '/api/external/vaults/': () => json({ results: [], hasNext: false }) });
  return renderWithQuery(
    <>
      <StatusTimeline transaction={tx} />
      <TransactionSummary transaction={tx} />
      <TransactionMovements transaction={tx} />
    </>,
  );
}

describe('a transaction that ended early', () => {
  it('reads as ended, with the approver’s reason as a reason, not an error', () => {
    renderFacts(declined);
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Reason for declining')).toBeInTheDocument();
    expect(within(details).getByText('destination not on our list')).toBeInTheDocument();
    expect(details).not.toHaveTextContent('declined:');
    expect(details).not.toHaveTextContent(/Error/);
    expect(details).toHaveTextContent('None charged');
    expect(details).toHaveTextContent('Never reached the chain');
    expect(details).not.toHaveTextContent(/yet/);

    const movements = screen.getByRole('region', { name: 'Operations and balance changes' });
    expect(movements).toHaveTextContent('the transaction ended declined without settling');
    expect(movements).not.toHaveTextContent(/yet/);

    const timeline = screen.getByRole('region', { name: 'Status timeline' });
    expect(timeline).toHaveTextContent('Reason for declining: destination not on our list');
  });

  it('still says "yet" of a transaction on its way', () => {
    renderFacts({ ...declined, status: 'SUBMITTED', error: undefined });
    const details = screen.getByRole('region', { name: 'Details' });
    expect(details).toHaveTextContent('Not charged yet');
    expect(details).not.toHaveTextContent('Reason');
  });
});

describe('a raw signature on the transaction page', () => {
  const key = secp256k1.utils.randomSecretKey();
  const walletAddress = evmAddressOfPublicKey(secp256k1.getPublicKey(key, false));
  const message = `0x${'ab'.repeat(32)}`;
  const signed = signDigest(rawSigningDigest(message), key);
  const rawSigning: Transaction = {
    id: 'tx-raw',
    status: 'COMPLETED',
    category: 'CONTRACT_CALL',
    vaultId: 'vault-raw',
    blockChain: 'ETHEREUM',
    amount: '0',
    data: { messageHex: message },
    txnSignature: signed.signature,
    txnSignatureData: signed.data,
  };

  function renderWithWallet(address: string) {
    installFakeApi({
      '/api/external/vaults/': () =>
        json({
          results: [
            {
              id: 'vault-raw',
              vaultName: 'Signer',
              wallets: [{ id: 'w1', blockchain: 'ETHEREUM', address }],
            },
          ],
          hasNext: false,
        }),
      '/api/external/contacts/': () => json({ results: [], hasNext: false }),
    });
    const Row = ({ term, children }: { term: string; children: ReactNode }) => (
      <>
        <dt>{term}</dt>
        <dd>{children}</dd>
      </>
    );
    return renderWithQuery(
      <section aria-label="Details">
        <dl>
          <ContractCallRows transaction={rawSigning} Row={Row} />
        </dl>
      </section>,
    );
  }

  it('shows the signature and that it recovers to the vault’s wallet', async () => {
    renderWithWallet(walletAddress);
    const details = screen.getByRole('region', { name: 'Details' });
    expect(details).toHaveTextContent(signed.signature);
    expect(
      await within(details).findByText(/Signed by the vault’s Ethereum wallet/),
    ).toBeInTheDocument();
    expect(details).toHaveTextContent(walletAddress);
  });

  it('warns when the signature recovers to another address', async () => {
    renderWithWallet(`0x${'12'.repeat(20)}`);
    const details = screen.getByRole('region', { name: 'Details' });
    expect(
      await within(details).findByText(/does not recover to the vault’s Ethereum wallet/),
    ).toBeInTheDocument();
    expect(details).toHaveTextContent(walletAddress);
  });
});
