import type { ReactNode } from 'react';
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentRow, PaymentRun } from '#contract/payment-runs.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { PaymentRunPage } from './payment-run-page.tsx';

// The page alone, without a router: links render as plain anchors to their route.
vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  Link: ({
    to,
    params,
    search: _search,
    children,
    ...rest
  }: {
    to: string;
    params?: Record<string, string>;
    search?: unknown;
    children: ReactNode;
  }) => (
    <a href={to.replace(/\$(\w+)/g, (_, k: string) => params?.[k] ?? '')} {...rest}>
      {children}
    </a>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RUN_PATH = '/api/console/payment_runs/run_1/';

function row(index: number, over: Partial<PaymentRow> = {}): PaymentRow {
  return {
    index,
    kind: 'CRYPTO',
    sourceVaultId: 'v_treasury',
    contactId: 'c_acme',
    address: null,
    bankAccountId: null,
    asset: 'USDC',
    blockChain: 'ETHEREUM',
    amount: `${index}0`,
    reference: `INV-${index}`,
    memo: null,
    status: 'PENDING',
    errors: [],
    externalId: `run-run_1-row-${index}`,
    transactionId: null,
    ...over,
  };
}

function run(over: Partial<PaymentRun> = {}): PaymentRun {
  const rows = over.rows ?? [row(1), row(2)];
  return {
    id: 'run_1',
    name: 'March vendors',
    status: 'CHECKED',
    subOrgId: null,
    createdById: 'st_1',
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    rowsDigest: 'ab'.repeat(32),
    rows,
    errors: rows.flatMap((r) => r.errors),
    simulation: {
      lines: [
        {
          vaultId: 'v_treasury',
          asset: 'USDC',
          blockChain: 'ETHEREUM',
          before: '1000',
          outflow: '30',
          fees: '0',
          after: '970',
          rowsNotFitting: [],
          note: null,
        },
        {
          vaultId: 'v_treasury',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          before: '0.5',
          outflow: '0',
          fees: '0.002',
          after: '0.498',
          rowsNotFitting: [],
          note: null,
        },
      ],
      totals: [{ asset: 'USDC', blockChain: 'ETHEREUM', amount: '30' }],
      totalUsd: '30',
      fees: [{ asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.002', usd: '6.4' }],
      feesUsd: '6.4',
    },
    ...over,
  };
}

const reference = {
  '/api/external/vaults/': () =>
    json({ results: [{ id: 'v_treasury', vaultName: 'Treasury' }], hasNext: false }),
  '/api/external/contacts/': () =>
    json({
      results: [{ id: 'c_acme', name: 'Acme Corp', addresses: [] }],
      hasNext: false,
    }),
};

describe('a payment run’s page', () => {
  it('shows each check error on its row and field, and clears it once the row is fixed in place', async () => {
    const bad = run({
      status: 'DRAFT',
      rows: [
        row(1),
        row(2, {
          amount: '1.1234567',
          errors: [
            {
              row: 2,
              field: 'amount',
              code: 'TOO_MANY_DECIMALS',
              message: 'USDC takes at most 6 decimals',
            },
          ],
        }),
      ],
    });
    const patched: unknown[] = [];
    installFakeApi({
      ...reference,
      [RUN_PATH]: () => json(bad),
      '/api/console/payment_runs/run_1/rows/2/': (_url, init) => {
        patched.push(JSON.parse(String(init.body)));
        return json(run({ status: 'CHECKED', rows: [row(1), row(2, { amount: '1.12' })] }));
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<PaymentRunPage runId="run_1" canInitiate />);

    expect(await screen.findByRole('heading', { name: 'March vendors' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('1 row needs a fix');
    const second = screen.getByRole('row', { name: /Row 2/ });
    expect(within(second).getByText('USDC takes at most 6 decimals')).toBeInTheDocument();
    // Not offered while errors stand.
    expect(screen.queryByRole('button', { name: 'Submit for approval' })).not.toBeInTheDocument();

    await user.click(within(second).getByRole('button', { name: 'Fix row 2' }));
    const amount = screen.getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveAccessibleDescription(/USDC takes at most 6 decimals/);
    await user.clear(amount);
    await user.type(amount, '1.12');
    await user.click(screen.getByRole('button', { name: 'Save row 2' }));

    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toMatchObject({
      kind: 'CRYPTO',
      sourceVaultId: 'v_treasury',
      contactId: 'c_acme',
      amount: '1.12',
      reference: 'INV-2',
    });
    await waitFor(() =>
      expect(screen.queryByText('USDC takes at most 6 decimals')).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Submit for approval' })).toBeInTheDocument();
  });

  it('shows the simulation per vault and asset, with fees in the asset and in USD', async () => {
    installFakeApi({ ...reference, [RUN_PATH]: () => json(run()) });
    renderWithQuery(<PaymentRunPage runId="run_1" canInitiate />);
    const simulation = await screen.findByRole('table', { name: /simulation/i });
    const line = within(simulation).getByRole('row', { name: /Treasury USDC/ });
    expect(line).toHaveTextContent('1,000');
    expect(line).toHaveTextContent('970');
    // The rows' network fees, paid in the chain's coin from the same vault.
    const coin = within(simulation).getByRole('row', { name: /Treasury ETH/ });
    expect(coin).toHaveTextContent('0.002');
    expect(coin).toHaveTextContent('0.498');
    expect(screen.getByText(/0\.002 ETH/)).toBeInTheDocument();
    expect(screen.getByText(/6\.40 USD/)).toBeInTheDocument();
  });

  it('submits a checked run and then points to its approval', async () => {
    let submitted = false;
    installFakeApi({
      ...reference,
      [RUN_PATH]: () => json(run({ status: submitted ? 'PENDING_APPROVAL' : 'CHECKED' })),
      '/api/console/payment_runs/run_1/submit/': () => {
        submitted = true;
        return json(run({ status: 'PENDING_APPROVAL' }));
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<PaymentRunPage runId="run_1" canInitiate />);
    await user.click(await screen.findByRole('button', { name: 'Submit for approval' }));
    const link = await screen.findByRole('link', { name: 'Open its approval' });
    expect(link).toHaveAttribute('href', '/approvals/held/run_1');
  });

  it('shows the progress of an executing run, row by row, and pauses it', async () => {
    const executing = run({
      status: 'EXECUTING',
      rows: [
        row(1, { status: 'COMPLETED', transactionId: 'tx_1' }),
        row(2, { status: 'SUBMITTED', transactionId: 'tx_2' }),
        row(3, { status: 'FAILED', transactionId: 'tx_3' }),
        row(4),
      ],
    });
    let paused = false;
    installFakeApi({
      ...reference,
      [RUN_PATH]: () => json(paused ? { ...executing, status: 'PAUSED' } : executing),
      '/api/console/payment_runs/run_1/pause/': () => {
        paused = true;
        return json({ ...executing, status: 'PAUSED' });
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<PaymentRunPage runId="run_1" canInitiate />);
    const bar = await screen.findByRole('progressbar', { name: /rows ended/i });
    expect(bar).toHaveAttribute('aria-valuenow', '2');
    expect(bar).toHaveAttribute('aria-valuemax', '4');
    expect(screen.getByText(/1 completed · 1 sent · 1 failed · 1 waiting/)).toBeInTheDocument();
    const first = screen.getByRole('row', { name: /Row 1/ });
    expect(within(first).getByRole('link', { name: /transaction/i })).toHaveAttribute(
      'href',
      '/transactions/tx_1',
    );
    expect(screen.getByRole('link', { name: /reconciliation/i })).toHaveAttribute(
      'href',
      '/api/console/payment_runs/run_1/reconciliation.csv',
    );
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry failed rows' })).toBeInTheDocument();
  });

  it('offers no change to a member who may only read', async () => {
    installFakeApi({ ...reference, [RUN_PATH]: () => json(run()) });
    renderWithQuery(<PaymentRunPage runId="run_1" canInitiate={false} />);
    expect(await screen.findByRole('heading', { name: 'March vendors' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
