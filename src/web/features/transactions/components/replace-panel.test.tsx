import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRANSACTION_CATEGORIES } from '#contract/enums.ts';
import { isReplaceableCategory } from '#contract/replacement.ts';
import type { Transaction } from '#contract/transaction.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import { createTestQueryClient, renderWithRouter } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { replaceBlocker } from '../api/replace-transaction.ts';
import { ReplacePanel } from './replace-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A transaction stuck on Ethereum, as an initiator (who may replace) sees it. */
const stuck = (over: Partial<Transaction>): Transaction => ({
  id: 'tx-stuck',
  status: 'SUBMITTED',
  transactionType: 'OUTGOING',
  category: 'TRANSFER',
  amount: '50',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  fees: { amount: '1', asset: 'USDC' },
  ...over,
});

async function renderPanel(tx: Transaction) {
  installFakeApi({});
  const client = createTestQueryClient();
  client.setQueryData(sessionQueries.current().queryKey, sessionFor('initiator'));
  const rendered = renderWithRouter(<ReplacePanel transaction={tx} />, client);
  await rendered.router.load();
  return rendered;
}

describe('the Replace offer', () => {
  it.each(TRANSACTION_CATEGORIES.filter((c) => !isReplaceableCategory(c)))(
    'is never made for a SUBMITTED %s, and the send-time check refuses it too',
    async (category) => {
      const tx = stuck({ category });
      await renderPanel(tx);
      expect(screen.queryByRole('button', { name: /Replace with a higher fee/ })).toBeNull();
      expect(replaceBlocker(tx)).toMatch(/cannot be replaced/);
    },
  );

  it('is never made for an incoming transaction', async () => {
    const tx = stuck({ transactionType: 'INCOMING' });
    await renderPanel(tx);
    expect(screen.queryByRole('button', { name: /Replace with a higher fee/ })).toBeNull();
    expect(replaceBlocker(tx)).toMatch(/only its sender/);
  });

  it('is made for a SUBMITTED outgoing transfer on a chain that replaces', async () => {
    const tx = stuck({ fees: { amount: '0.001', asset: 'ETH' } });
    await renderPanel(tx);
    expect(
      await screen.findByRole('button', { name: /Replace with a higher fee/ }),
    ).toBeInTheDocument();
    expect(replaceBlocker(tx)).toBeNull();
  });
});
