import { and, eq, lt } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { cmp, mul, round, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { depositToSandboxVault } from '#contract/endpoints/sandbox-world.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import { LedgerHistoryResponse, LedgerStatementResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { recordOpeningBalances } from '../../custody/sandbox/engine/movements.ts';
import { ledgerMovements } from '../../db/schema/sandbox.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest as it } from '../../test/engine-test.ts';
import { createSubOrg, createVault } from '../../test/fixtures.ts';
import { busyYearPeriod, insertBusyYear } from '../../test/ledger-bulk.ts';
import { signInStaff } from '../../test/staff-session.ts';
import { closingOn } from './history.ts';
import { wholeStatement } from '../../test/ledger-statement.ts';
import { reconciles } from './statement.ts';

const DAY = 86_400_000;

const historyUrl = (query: Record<string, string>) =>
  `${pathOf(ledgerHistory)}${toQueryString(query)}`;
const statementUrl = (query: Record<string, string | number>) =>
  `${pathOf(ledgerStatement)}${toQueryString(query)}`;

/** ETH on Ethereum deposited into a vault through the sandbox world. */
async function depositEth(t: EngineTestApp, vaultId: string, amount: string) {
  const res = await t.post(pathOf(depositToSandboxVault, { vaultId }), {
    asset: 'ETH',
    chain: 'ETHEREUM',
    amount,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Every line of a statement, three a page, and its totals. */
async function statementOf(t: EngineTestApp, query: Record<string, string>) {
  const { lines, last } = await wholeStatement((url) => t.get(url), query, 3);
  return { lines, totals: last.totals };
}

/** What the ledger holds for a vault's asset before `end`: the sum of its movements. */
async function ledgerBalance(t: EngineTestApp, vaultId: string, asset: string, end: Date) {
  const rows = await t.db
    .select({ amount: ledgerMovements.amount })
    .from(ledgerMovements)
    .where(
      and(
        eq(ledgerMovements.vaultId, vaultId),
        eq(ledgerMovements.asset, asset),
        lt(ledgerMovements.at, end),
      ),
    );
  return sum(rows.map((r) => r.amount));
}

describe('the ledger’s history and statements', () => {
  it('a vault’s history closes each day at what its movements add up to, in units and USD; its statement reconciles page by page', async ({
    t,
    f,
  }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Ledger history' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '2' },
    ]);
    const periodStart = t.clock.now();
    for (const amount of ['1.25', '0.5', '3']) {
      t.clock.advance(DAY);
      await depositEth(t, vault.id, amount);
    }
    const out = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: vault.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.75',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      externalId: 'ledger-statement-out',
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await t.approve(String(out.body.id));
    await t.run(3_600_000);
    expect(await t.status(String(out.body.id))).toBe('COMPLETED');

    const res = await t.get(historyUrl({ days: '7', vaultId: vault.id }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = LedgerHistoryResponse.parse(res.body);
    expect(history.days).toBe(7);
    const [eth] = history.series;
    expect(history.series.map((s) => s.asset)).toEqual(['ETH']);
    for (let i = 0; i < 7; i += 1) {
      const dayEnd = new Date(Date.parse(`${history.from}T00:00:00Z`) + (i + 1) * DAY);
      const units = closingOn(eth?.units ?? [], i);
      expect(cmp(units, await ledgerBalance(t, vault.id, 'ETH', dayEnd)), `day ${i}`).toBe(0);
    }
    // Today's closing is the balance now, and in USD at the sandbox's price of ETH.
    const today = closingOn(eth?.units ?? [], 6);
    expect(cmp(today, (await t.balance(vault.id, 'ETH', 'ETHEREUM')).amount)).toBe(0);
    expect(cmp(closingOn(eth?.usd ?? [], 6), round(mul(today, '3000'), 2))).toBe(0);

    const to = t.clock.now();
    const { lines, totals } = await statementOf(t, {
      vaultId: vault.id,
      from: new Date(periodStart.getTime() + DAY / 2).toISOString(),
      to: new Date(to.getTime() + 1).toISOString(),
    });
    expect(reconciles(totals, lines)).toBe(true);
    expect(totals).toHaveLength(1);
    expect(totals[0]?.opening).toBe('2');
    expect(
      cmp(
        totals[0]?.closing ?? '',
        await ledgerBalance(t, vault.id, 'ETH', new Date(to.getTime() + 1)),
      ),
    ).toBe(0);
    expect(lines.map((l) => [l.kind, l.amount === '0' ? `-${l.fee}` : l.amount])).toEqual([
      ['AMOUNT', '1.25'],
      ['AMOUNT', '0.5'],
      ['AMOUNT', '3'],
      ['AMOUNT', '-0.75'],
      ['FEE', expect.stringMatching(/^-0\.\d+$/)],
    ]);
    expect(lines[3]).toMatchObject({
      reference: 'ledger-statement-out',
      counterparty: 'Operations',
    });
  });

  it('a movement dated before days already summed moves every later day’s closing: a statement starting mid-day in a zone opens and closes at what the movements add up to', async ({
    t,
  }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Ledger late' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '2' },
    ]);
    const begun = t.clock.now();
    for (const amount of ['1.25', '0.5']) {
      t.clock.advance(DAY);
      await depositEth(t, vault.id, amount);
    }
    // Recorded now, dated two days before the vault's first movement.
    await recordOpeningBalances(t.db, t.orgId, [
      {
        vaultId: vault.id,
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '0.125',
        at: new Date(begun.getTime() - 2 * DAY),
      },
    ]);
    const to = new Date(t.clock.now().getTime() + 1);
    // Five hours into a UTC day, as a month in a zone west of UTC starts.
    const from = new Date(Math.floor(begun.getTime() / DAY) * DAY - DAY + 5 * 3_600_000);
    const { lines, totals } = await statementOf(t, {
      vaultId: vault.id,
      from: from.toISOString(),
      to: to.toISOString(),
    });
    expect(reconciles(totals, lines)).toBe(true);
    expect(cmp(totals[0]?.opening ?? '', await ledgerBalance(t, vault.id, 'ETH', from))).toBe(0);
    expect(cmp(totals[0]?.opening ?? '', '2.125')).toBe(0);
    expect(cmp(totals[0]?.closing ?? '', await ledgerBalance(t, vault.id, 'ETH', to))).toBe(0);
    expect(cmp(totals[0]?.closing ?? '', '3.875')).toBe(0);

    const res = await t.get(historyUrl({ days: '7', vaultId: vault.id }));
    const history = LedgerHistoryResponse.parse(res.body);
    const [eth] = history.series;
    for (let i = 0; i < 7; i += 1) {
      const dayEnd = new Date(Date.parse(`${history.from}T00:00:00Z`) + (i + 1) * DAY);
      const units = closingOn(eth?.units ?? [], i);
      expect(cmp(units, await ledgerBalance(t, vault.id, 'ETH', dayEnd)), `day ${i}`).toBe(0);
    }
  });

  it('a sub-organization’s history and statement are its vaults’ together, the organization’s every vault’s; a member held to a sub-organization reads it as their organization and no other', async ({
    t,
    f,
  }) => {
    const [a, b] = [
      await createSubOrg(t.db, t.orgId, 'Ledger desk A'),
      await createSubOrg(t.db, t.orgId, 'Ledger desk B'),
    ];
    const eth = [{ asset: 'ETH', chain: 'ETHEREUM', amount: '1' }];
    const a1 = await createVault(t.db, { orgId: t.orgId, subOrgId: a.id, vaultName: 'A one' }, eth);
    const a2 = await createVault(t.db, { orgId: t.orgId, subOrgId: a.id, vaultName: 'A two' }, eth);
    const b1 = await createVault(t.db, { orgId: t.orgId, subOrgId: b.id, vaultName: 'B one' }, eth);
    const begun = t.clock.now();
    for (const [vault, amount] of [
      [a1, '1.5'],
      [a2, '0.25'],
      [b1, '4'],
      [a1, '0.000000000000000003'],
    ] as const) {
      t.clock.advance(DAY);
      await depositEth(t, vault.id, amount);
    }

    /** Every day's ETH closing of a history, checked against the sum of `vaultIds`' ledgers. */
    const expectSumOf = async (body: unknown, vaultIds: readonly string[]) => {
      const history = LedgerHistoryResponse.parse(body);
      const series = history.series.find((x) => x.asset === 'ETH' && x.chain === 'ETHEREUM');
      for (let i = 0; i < history.days; i += 1) {
        const end = new Date(Date.parse(`${history.from}T00:00:00Z`) + (i + 1) * DAY);
        const held = sum(await Promise.all(vaultIds.map((id) => ledgerBalance(t, id, 'ETH', end))));
        expect(cmp(closingOn(series?.units ?? [], i), held), `day ${i}`).toBe(0);
      }
      return history;
    };
    const history = await t.get(historyUrl({ days: '7', subOrgId: a.id }));
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    const ofA = await expectSumOf(history.body, [a1.id, a2.id]);
    // Today: 1 + 1.5 + 0.000000000000000003 and 1 + 0.25.
    expect(closingOn(ofA.series[0]?.units ?? [], 6)).toBe('3.750000000000000003');

    // The organization: every vault of it, these and the others.
    const everyVault = await t.db
      .selectDistinct({ id: ledgerMovements.vaultId })
      .from(ledgerMovements)
      .where(eq(ledgerMovements.orgId, t.orgId));
    expect(everyVault.map((v) => v.id)).toEqual(
      expect.arrayContaining([f.treasury.id, a1.id, a2.id, b1.id]),
    );
    const organization = await t.get(historyUrl({ days: '7' }));
    expect(organization.status).toBe(200);
    await expectSumOf(
      organization.body,
      everyVault.map((v) => v.id),
    );

    // A's statement: A's vaults' lines alone, reconciled to the last unit.
    const { lines, totals } = await statementOf(t, {
      subOrgId: a.id,
      from: new Date(begun.getTime() + 1).toISOString(),
      to: new Date(t.clock.now().getTime() + 1).toISOString(),
    });
    expect(reconciles(totals, lines)).toBe(true);
    expect(totals).toMatchObject([
      {
        asset: 'ETH',
        opening: '2',
        amounts: '1.750000000000000003',
        closing: '3.750000000000000003',
      },
    ]);
    expect(new Set(lines.map((l) => l.vaultId))).toEqual(new Set([a1.id, a2.id]));

    // A member held to A: the organization they see is A; B and its vault are not found.
    const held = await signInStaff(t.app, t.db, t.authClock, { role: 'viewer', subOrgIds: [a.id] });
    const theirs = await held.json(historyUrl({ days: '7' }));
    expect(theirs.status).toBe(200);
    await expectSumOf(theirs.body, [a1.id, a2.id]);
    for (const url of [
      historyUrl({ days: '7', subOrgId: b.id }),
      historyUrl({ days: '7', vaultId: b1.id }),
      statementUrl({
        subOrgId: b.id,
        from: begun.toISOString(),
        to: t.clock.now().toISOString(),
      }),
    ])
      expect((await held.json(url)).status, url).toBe(404);
  });

  it('refuses a period other than 7, 30, 90 or 365 days, a statement ending before it starts, both vault and sub-organization, and a cursor it never gave, naming the field', async ({
    t,
    f,
  }) => {
    const bad = [
      [historyUrl({ days: '8' }), 'days'],
      [historyUrl({ days: '30', vaultId: f.ops.id, subOrgId: 'x' }), 'vaultId'],
      [
        statementUrl({
          vaultId: f.ops.id,
          from: '2030-02-01T00:00:00Z',
          to: '2030-01-01T00:00:00Z',
        }),
        'to',
      ],
      [statementUrl({ vaultId: f.ops.id, from: 'yesterday', to: '2030-01-01T00:00:00Z' }), 'from'],
      [
        statementUrl({
          vaultId: f.ops.id,
          from: '2030-01-01T00:00:00Z',
          to: '2030-02-01T00:00:00Z',
          cursor: 'abc',
        }),
        'cursor',
      ],
    ] as const;
    for (const [url, field] of bad) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      const fields = res.body.fields as Array<{ field: string }>;
      expect(
        fields.map((x) => x.field),
        url,
      ).toContain(field);
    }
    const missing = await t.get(historyUrl({ days: '7', vaultId: 'no-such-vault' }));
    expect(missing.status).toBe(404);
  });

  it('bench: a year’s history of eight assets each moving every day is at most 50 KB on the wire; a statement’s first page over 100,000 movements in a year, measured', async ({
    t,
  }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Busy vault' });
    const yearAgo = new Date(t.clock.now().getTime() - 365 * DAY);
    await insertBusyYear(t.db, { orgId: t.orgId, vaultId: vault.id, yearAgo });

    const wire = await t.app.request(historyUrl({ days: '365', vaultId: vault.id }), {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(wire.status).toBe(200);
    const bytes = (await wire.arrayBuffer()).byteLength;
    console.info(
      `ledger bench: a year's history of 9 series, ${bytes} bytes on the wire (${wire.headers.get('content-encoding')})`,
    );
    expect(bytes).toBeLessThanOrEqual(50 * 1024);

    const query = { vaultId: vault.id, ...busyYearPeriod(yearAgo) };
    const times: number[] = [];
    let first: LedgerStatementResponse | undefined;
    for (let i = 0; i < 5; i += 1) {
      const started = performance.now();
      const res = await t.get(statementUrl({ ...query, limit: 50 }));
      times.push(performance.now() - started);
      expect(res.status).toBe(200);
      first = LedgerStatementResponse.parse(res.body);
    }
    times.sort((a, b) => a - b);
    console.info(
      `ledger bench: first statement page of 100,000 movements, median ${times[2]?.toFixed(0)} ms (${times.map((x) => x.toFixed(0)).join(', ')})`,
    );
    expect(first?.results).toHaveLength(50);
    const usdc = first?.totals.find((x) => x.asset === 'USDC');
    // 10,000 fees of 0.01.
    expect(cmp(usdc?.fees ?? '', '100')).toBe(0);
    expect(
      cmp(usdc?.closing ?? '', await ledgerBalance(t, vault.id, 'USDC', new Date(query.to))),
    ).toBe(0);
  });
});
