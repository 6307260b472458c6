import Papa from 'papaparse';
import { describe, expect } from 'vitest';
import { add, cmp } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import {
  exportJournal,
  getJournalMapping,
  setJournalMapping,
} from '#contract/endpoints/ledger-periods.ts';
import { JOURNAL_COLUMNS, type JournalMapping } from '#contract/ledger-periods.ts';
import { toQueryString } from '#contract/paths.ts';
import {
  planMovements,
  recordMovements,
  recordOpeningBalances,
  rowKey,
  type MovementSource,
} from '../../../custody/sandbox/engine/movements.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { createVault } from '../../../test/fixtures.ts';
import { closeMonth, jsonBody, lastMonth } from '../../../test/ledger-periods.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { monthBounds, previousMonth } from '../periods/month.ts';

/**
 * The accounting journal of a closed month: refused until every account it
 * needs is mapped (each missing one named), then a CSV whose entries each
 * balance in their currency, two lines per movement; an admin's of the
 * whole organization only.
 */

const DAY = 86_400_000;

/** Two vaults with a month's movements (an opening balance, a payment and its fee, a transfer between them), the month closed. */
const appTest = appTestWith().extend('books', { scope: 'file' }, async ({ t }) => {
  const month = lastMonth(t.clock.now());
  const { from } = monthBounds(month, 'UTC');
  const a = await createVault(t.db, { orgId: t.orgId, vaultName: 'Treasury A' });
  const b = await createVault(t.db, { orgId: t.orgId, vaultName: 'Operations B' });
  const eth = (vaultId: string, amount: string) => ({
    vaultId,
    asset: 'ETH',
    chain: 'ETHEREUM',
    amount,
  });
  await recordOpeningBalances(t.db, t.orgId, [
    { ...eth(a.id, '5'), at: new Date(from.getTime() + DAY) },
  ]);
  const move = async (
    day: number,
    changes: ReturnType<typeof eth>[],
    source: MovementSource,
    after: string[],
  ) =>
    recordMovements(t.db, new Date(from.getTime() + day * DAY), {
      orgId: t.orgId,
      from: source,
      movements: planMovements(changes, source),
      finalAmount: new Map(changes.map((c, i) => [rowKey(c), after[i] ?? '0'])),
    });
  await move(
    3,
    [eth(a.id, '-1.01')],
    {
      transactionId: 'tx-pay-1',
      reference: 'pay-1',
      memo: 'rent, October',
      destination: { type: 'EXTERNAL_ADDRESS', address: '0xabc' },
      fee: { party: { type: 'VAULT', id: a.id }, asset: 'ETH', chain: 'ETHEREUM', amount: '0.01' },
    },
    ['3.99'],
  );
  await move(
    5,
    [eth(a.id, '-0.5'), eth(b.id, '0.5')],
    { transactionId: 'tx-move-1', reference: null, memo: null },
    ['3.49', '0.5'],
  );
  const proposer = await t.signIn('admin', { name: 'Journal Proposer' });
  const decider = await t.signIn('admin', { name: 'Journal Decider' });
  await closeMonth(proposer, decider, month);
  return { month, a: a.id, b: b.id };
});

const exportOf = (t: TestApp, month: string) =>
  t.admin.request(`${pathOf(exportJournal)}${toQueryString({ month })}`);

const FULL = (a: string, b: string): JournalMapping => ({
  vaults: [
    { vaultId: a, asset: 'ETH', account: '1010 Treasury ETH' },
    { vaultId: b, asset: null, account: '1020' },
  ],
  categories: {
    transfers: '1900',
    networkFees: '6100',
    tradeFees: '6110',
    stakingRewards: '4200',
    openingBalances: '3000',
  },
});

describe('the accounting journal', () => {
  appTest(
    'is refused until every account it needs is mapped, each named; a mapping names its bad fields',
    async ({ t, books }) => {
      const refused = await exportOf(t, books.month);
      expect(refused.status).toBe(409);
      const body = (await refused.json()) as { fields: { field: string }[] };
      expect(body.fields.map((f) => f.field).sort()).toEqual(
        [
          `vaults.${books.a}`,
          `vaults.${books.b}`,
          'categories.transfers',
          'categories.networkFees',
          'categories.openingBalances',
        ].sort(),
      );

      const unknown = await t.admin.json(
        pathOf(setJournalMapping),
        jsonBody('PUT', { ...FULL(books.a, books.b), vaults: [{ vaultId: 'nope', account: '1' }] }),
      );
      expect(unknown).toMatchObject({
        status: 400,
        body: { fields: [{ field: 'vaults.0.vaultId', message: 'no vault “nope”' }] },
      });
      const badCode = await t.admin.json(
        pathOf(setJournalMapping),
        jsonBody('PUT', {
          ...FULL(books.a, books.b),
          vaults: [{ vaultId: books.a, account: '=SUM(A1)' }],
        }),
      );
      expect(badCode).toMatchObject({
        status: 400,
        body: {
          fields: [{ field: 'vaults.0.account', message: expect.stringMatching(/account code/) }],
        },
      });

      // Only some: the rest still named.
      const partial = await t.admin.json(
        pathOf(setJournalMapping),
        jsonBody('PUT', {
          vaults: FULL(books.a, books.b).vaults,
          categories: { transfers: '1900' },
        }),
      );
      expect(partial.status, JSON.stringify(partial.body)).toBe(200);
      const still = (await (await exportOf(t, books.month)).json()) as {
        fields: { field: string }[];
      };
      expect(still.fields.map((f) => f.field)).toEqual([
        'categories.networkFees',
        'categories.openingBalances',
      ]);
    },
  );

  appTest(
    'of a closed month is a CSV of balanced double entries, two lines per movement, as mapped',
    async ({ t, books }) => {
      const set = await t.admin.json(
        pathOf(setJournalMapping),
        jsonBody('PUT', FULL(books.a, books.b)),
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect((await t.admin.json(pathOf(getJournalMapping))).body).toMatchObject({
        mapping: FULL(books.a, books.b),
      });

      const res = await exportOf(t, books.month);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toContain(`journal-${books.month}.csv`);
      const parsed = Papa.parse<Record<string, string>>(await res.text(), {
        header: true,
        skipEmptyLines: true,
      });
      expect(parsed.errors).toEqual([]);
      expect(parsed.meta.fields).toEqual([...JOURNAL_COLUMNS]);
      const lines = parsed.data;
      // The opening balance, the payment, its fee, and the transfer's two legs: five entries.
      expect(lines).toHaveLength(10);
      const entries = new Map<string, typeof lines>();
      for (const l of lines) entries.set(l.entry ?? '', [...(entries.get(l.entry ?? '') ?? []), l]);
      expect(entries.size).toBe(5);
      for (const [entry, own] of entries) {
        const debits = own.reduce((s, l) => add(s, l.debit || '0'), '0');
        const credits = own.reduce((s, l) => add(s, l.credit || '0'), '0');
        expect(cmp(debits, credits), `entry ${entry} balances`).toBe(0);
        expect(new Set(own.map((l) => l.currency))).toEqual(new Set(['ETH']));
        for (const l of own)
          expect((l.debit === '') !== (l.credit === ''), `${entry}: one side`).toBe(true);
        for (const l of own) expect(`${l.debit ?? ''}${l.credit ?? ''}`).toMatch(/^\d/);
      }
      expect(lines).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            account: '1010 Treasury ETH',
            debit: '5',
            memo: expect.stringMatching(/^Adjustment ETH/),
          }),
          expect.objectContaining({ account: '3000', credit: '5' }),
          expect.objectContaining({
            account: '1900',
            debit: '1',
            reference: 'pay-1',
            transaction_id: 'tx-pay-1',
            memo: expect.stringContaining('rent, October'),
          }),
          expect.objectContaining({
            account: '1010 Treasury ETH',
            credit: '1',
            reference: 'pay-1',
          }),
          expect.objectContaining({ account: '6100', debit: '0.01', transaction_id: 'tx-pay-1' }),
          expect.objectContaining({ account: '1010 Treasury ETH', credit: '0.01' }),
          expect.objectContaining({ account: '1020', debit: '0.5', transaction_id: 'tx-move-1' }),
          expect.objectContaining({ account: '1900', credit: '0.5', transaction_id: 'tx-move-1' }),
        ]),
      );
      expect(new Set(lines.map((l) => l.date?.slice(0, 7)))).toEqual(new Set([books.month]));
    },
  );

  appTest(
    'is an admin’s of the whole organization, of a closed month only',
    async ({ t, books, viewer, subOrgId }) => {
      expect(
        (await viewer.request(`${pathOf(exportJournal)}${toQueryString({ month: books.month })}`))
          .status,
      ).toBe(403);
      expect((await viewer.json(pathOf(getJournalMapping))).status).toBe(403);
      const restricted = await t.signIn('admin', { subOrgIds: [subOrgId] });
      expect(await restricted.json(pathOf(getJournalMapping))).toMatchObject({
        status: 403,
        body: { code: 'OUTSIDE_ADMIN_SCOPE' },
      });
      const open = await exportOf(t, previousMonth(books.month));
      expect(open.status).toBe(409);
      expect(await open.json()).toMatchObject({
        fields: [{ field: 'month', message: expect.stringMatching(/is not closed/) }],
      });
    },
  );
});
