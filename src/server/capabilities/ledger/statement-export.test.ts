import { eq } from 'drizzle-orm';
import Papa from 'papaparse';
import { describe, expect } from 'vitest';
import { add, cmp, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { depositToSandboxVault } from '#contract/endpoints/sandbox-world.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import { LedgerHistoryResponse, LedgerStatementResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { staff } from '../../db/schema/console.ts';
import { engineTest as it } from '../../test/engine-test.ts';
import { createVault } from '../../test/fixtures.ts';
import { signInStaff } from '../../test/staff-session.ts';
import { localTime } from '../../http/wall-clock.ts';
import { statementHtml } from './statement-export.ts';

const DAY = 86_400_000;
const IBAN = 'DE89370400440532013000';

const statementUrl = (query: Record<string, string | number>) =>
  `${pathOf(ledgerStatement)}${toQueryString(query)}`;

describe('a statement as a file', () => {
  it('CSV and printable HTML hold every line of the period in the member’s zone, reconcile per asset to the last unit, mask an account number in a memo, and are refused outside the member’s scope', async ({
    t,
    f,
  }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Export vault' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '2.000000000000000001' },
    ]);
    const begun = t.clock.now();
    for (const amount of ['1.25', '0.000000000000000007']) {
      t.clock.advance(DAY / 4);
      const res = await t.post(pathOf(depositToSandboxVault, { vaultId: vault.id }), {
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const out = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: vault.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.75',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      externalId: 'export-out',
      memo: `=cmd paid to ${IBAN}`,
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await t.approve(String(out.body.id));
    await t.run(3_600_000);
    expect(await t.status(String(out.body.id))).toBe('COMPLETED');

    const member = await signInStaff(t.app, t.db, t.authClock, { role: 'viewer' });
    await t.db.update(staff).set({ timeZone: 'Asia/Tokyo' }).where(eq(staff.id, member.member.id));
    const period = {
      vaultId: vault.id,
      from: new Date(begun.getTime() + 1).toISOString(),
      to: new Date(t.clock.now().getTime() + 1).toISOString(),
    };
    const json = await member.json(statementUrl({ ...period, limit: 1 }));
    expect(json.status).toBe(200);
    const first = LedgerStatementResponse.parse(json.body);
    expect(first.hasNext).toBe(true);

    const csv = await member.request(statementUrl({ ...period, format: 'csv', limit: 2 }));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const text = await csv.text();
    expect(text).not.toContain(IBAN);
    const rows = Papa.parse<Record<string, string>>(text, { header: true }).data;
    // Every line of the period, not one page: 2 deposits, the transfer out and its fee.
    const movements = rows.filter((r) => r.kind !== 'OPENING' && r.kind !== 'CLOSING');
    expect(movements.map((r) => r.kind)).toEqual(['AMOUNT', 'AMOUNT', 'AMOUNT', 'FEE']);
    const opening = rows.find((r) => r.kind === 'OPENING');
    const closing = rows.find((r) => r.kind === 'CLOSING');
    const moved = movements.reduce((s, r) => sub(add(s, r.amount ?? '0'), r.fee ?? '0'), '0');
    expect(opening?.balance).toBe('2.000000000000000001');
    expect(cmp(add(opening?.balance ?? '', moved), closing?.balance ?? '')).toBe(0);
    expect(cmp(closing?.balance ?? '', first.totals[0]?.closing ?? '')).toBe(0);
    expect(cmp(closing?.balance ?? '', (await t.balance(vault.id, 'ETH', 'ETHEREUM')).amount)).toBe(
      0,
    );
    // The member's zone, named; the transfer's memo masked and kept from running as a formula.
    const outLine = movements[2];
    expect(outLine?.timeZone).toBe('Asia/Tokyo');
    const jsonOut = first.results[0];
    expect(movements[0]?.time).toBe(localTime(jsonOut?.at ?? '', 'Asia/Tokyo'));
    expect(outLine?.memo).toBe("'=cmd paid to •••• 3000");
    expect(outLine?.reference).toBe('export-out');
    expect(outLine?.transactionId).toBe(String(out.body.id));

    const html = await member.request(statementUrl({ ...period, format: 'html' }));
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    const page = await html.text();
    expect(page).not.toContain(IBAN);
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('href="/ledger-statement.css"');
    expect(page).toContain('times in Asia/Tokyo');
    expect(page).toContain('✓ Reconciled');
    expect(page).toContain(`Closing balance</th><td class="n">${first.totals[0]?.closing}`);
    expect(page.match(/<tr><td>/g)).toHaveLength(4);

    // Another sub-organization's member: the vault is not theirs, whatever the format.
    const outsider = await signInStaff(t.app, t.db, t.authClock, {
      role: 'viewer',
      subOrgIds: ['not-this-one'],
    });
    for (const format of ['json', 'csv', 'html']) {
      const res = await outsider.request(statementUrl({ ...period, format }));
      expect(res.status, format).toBe(404);
    }
    const bad = await member.json(statementUrl({ ...period, format: 'pdf' }));
    expect(bad.status).toBe(400);
    expect((bad.body as { fields: Array<{ field: string }> }).fields[0]?.field).toBe('format');
  });

  it('the history carries each day’s flows in USD: in, out, fees and rewards, an opening balance not among them', async ({
    t,
  }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Flows vault' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
    ]);
    const res = await t.post(pathOf(depositToSandboxVault, { vaultId: vault.id }), {
      asset: 'ETH',
      chain: 'ETHEREUM',
      amount: '0.5',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const history = LedgerHistoryResponse.parse(
      (await t.get(`${pathOf(ledgerHistory)}${toQueryString({ days: '7', vaultId: vault.id })}`))
        .body,
    );
    // 0.5 ETH at the sandbox's 3000 USD; nothing out, no fee, no reward.
    expect(history.flows.inUsd.at(-1)).toBe('1500');
    expect(history.flows.inUsd.slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(history.flows.outUsd.every((v) => v === null)).toBe(true);
    expect(history.flows.feesUsd.every((v) => v === null)).toBe(true);
    expect(history.flows.rewardsUsd.every((v) => v === null)).toBe(true);
  });
});

describe('the printable statement', () => {
  it('escapes what a movement carries and says when an asset does not reconcile', () => {
    const page = statementHtml({
      title: '<b>Vault</b>',
      from: '2030-01-01T00:00:00.000Z',
      to: '2030-02-01T00:00:00.000Z',
      timeZone: 'UTC',
      totals: [
        { asset: 'ETH', chain: 'ETHEREUM', opening: '1', amounts: '1', fees: '0', closing: '3' },
      ],
      lines: [
        {
          id: '1',
          at: '2030-01-02T00:00:00.000Z',
          vaultId: 'v',
          asset: 'ETH',
          chain: 'ETHEREUM',
          kind: 'AMOUNT',
          amount: '1',
          fee: '0',
          usdPrice: '3000',
          usdValue: '3000',
          balanceAfter: '2',
          counterparty: '<img src=x onerror=alert(1)>',
          reference: null,
          memo: null,
          transactionId: null,
          valueAt: null,
        },
      ],
    });
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>Vault');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('✗ Does not reconcile');
  });
});
