import type { PaymentRowInput } from '../src/contract/payment-runs.ts';
import {
  checkPaymentRun,
  type CheckSnapshot,
} from '../src/server/capabilities/payment-runs/check.ts';
import type { BenchSection } from './section.ts';

/**
 * A payment run's check (capabilities/payment-runs/check.ts) over 1,000 and
 * 2,000 rows: the pure check and simulation alone, against a snapshot of 20
 * vaults, 200 contacts and 50 bank accounts. The snapshot's reads (one per
 * distinct vault, contact and account named) are not in the figure.
 */

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function snapshot(): CheckSnapshot {
  const balances = { USDC: { ETHEREUM: '100000000' }, ETH: { ETHEREUM: '100000' } };
  return {
    subOrgId: null,
    vaults: new Map(Array.from({ length: 20 }, (_, i) => [`v${i}`, { subOrgId: null, balances }])),
    contacts: new Map(
      Array.from({ length: 200 }, (_, i) => [
        `c${i}`,
        { status: 'APPROVED', blockChain: 'ETHEREUM', address: ADDRESS, assetList: [] },
      ]),
    ),
    bankAccounts: new Map(Array.from({ length: 50 }, (_, i) => [`b${i}`, { status: 'APPROVED' }])),
    assets: new Map([
      ['USDC:ETHEREUM', { decimals: 6 }],
      ['ETH:ETHEREUM', { decimals: 18 }],
    ]),
    paidReferences: new Set(Array.from({ length: 5000 }, (_, i) => `OLD-${i}`)),
    prices: new Map([
      ['USDC:ETHEREUM', '1'],
      ['ETH:ETHEREUM', '3000'],
    ]),
    fees: new Map([['USDC:ETHEREUM', { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.0004' }]]),
    offRamps: new Map(),
  };
}

function rows(count: number): PaymentRowInput[] {
  return Array.from({ length: count }, (_, i) => {
    const base = {
      sourceVaultId: `v${i % 20}`,
      asset: 'USDC',
      blockChain: 'ETHEREUM',
      amount: `${(i % 900) + 100}.25`,
      reference: `RUN-${i}`,
    };
    if (i % 10 === 0) return { ...base, kind: 'FIAT' as const, bankAccountId: `b${i % 50}` };
    if (i % 10 === 1) return { ...base, kind: 'CRYPTO' as const, address: ADDRESS };
    return { ...base, kind: 'CRYPTO' as const, contactId: `c${i % 200}` };
  });
}

export const paymentRunCheckSection: BenchSection = {
  name: 'payment-run-check',
  about: 'a payment run of 1,000 and 2,000 rows checked and simulated (median of 5)',
  async run({ progress }) {
    const snap = snapshot();
    const data: Record<string, { medianMs: string; errors: number }> = {};
    const lines: string[] = ['rows   median ms'];
    for (const count of [1000, 2000]) {
      const input = rows(count);
      const times: number[] = [];
      let errors = 0;
      for (let i = 0; i < 5; i += 1) {
        const started = performance.now();
        errors = checkPaymentRun(input, snap).errors.length;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const median = (times[2] ?? 0).toFixed(1);
      data[String(count)] = { medianMs: median, errors };
      lines.push(`${String(count).padEnd(6)} ${median}`);
      progress(`payment-run-check: ${count} rows in ${median} ms (${errors} errors)`);
    }
    return { text: lines.join('\n'), data };
  },
};
