import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedgerStatementLine, LedgerStatementResponse } from '#contract/ledger.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { LedgerStatementPage } from './ledger-statement-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const FROM = '2030-06-01T00:00:00.000Z';
const TO = '2030-07-01T00:00:00.000Z';
const HAPPENED = '2030-05-20T14:30:00.000Z';

const line = (over: Partial<LedgerStatementLine>): LedgerStatementLine => ({
  id: '1',
  at: FROM,
  vaultId: 'vault-1',
  asset: 'ETH',
  chain: 'ETHEREUM',
  kind: 'AMOUNT',
  amount: '0.5',
  fee: '0',
  usdPrice: '3000',
  usdValue: '1500.00',
  balanceAfter: '2.5',
  counterparty: null,
  reference: null,
  memo: null,
  transactionId: null,
  valueAt: null,
  ...over,
});

const statement: LedgerStatementResponse = {
  from: FROM,
  to: TO,
  totals: [
    { asset: 'ETH', chain: 'ETHEREUM', opening: '2', amounts: '0.75', fees: '0', closing: '2.75' },
  ],
  results: [
    // Booked at the month's start: it happened in May, a month already closed.
    line({ id: '1', valueAt: HAPPENED }),
    line({ id: '2', at: '2030-06-03T09:00:00.000Z', amount: '0.25', balanceAfter: '2.75' }),
  ],
  nextCursor: null,
  hasNext: false,
};

describe('the statement page', () => {
  it('shows a movement that arrived after its month was closed as a late adjustment, with when it happened; one booked as it happened has no such note', async () => {
    installFakeApi({
      '/api/console/ledger/statement/': () => json(statement),
      '/api/external/vaults/': () => json({ results: [], hasNext: false, nextCursor: null }),
      '/api/external/sub_orgs/': () => json({ results: [], hasNext: false, nextCursor: null }),
    });
    renderWithRouter(
      <LedgerStatementPage
        who={{ vaultId: 'vault-1' }}
        chosen={{ month: '2030-06' }}
        period={{ from: FROM, to: TO, label: 'June 2030' }}
        months={['2030-06', '2030-05']}
        cursor={undefined}
        previousCursors={0}
        onWhoChange={() => undefined}
        onPeriodChange={() => undefined}
        onPage={() => undefined}
      />,
    );
    const table = await screen.findByRole('table', { name: /Every movement in the period/ });
    const [, late, onTime] = within(table).getAllByRole('row');
    expect(late).toHaveTextContent(
      `Late: happened ${formatDateTime(HAPPENED, 'UTC')}, in a period already closed`,
    );
    expect(onTime).not.toHaveTextContent(/Late/);
  });
});
