import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import { describe, expect } from 'vitest';
import { canonicalJson } from '#contract/approval-card.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { ledgerStatement } from '#contract/endpoints/ledger.ts';
import { listLedgerPeriods, proposeLedgerClose } from '#contract/endpoints/ledger-periods.ts';
import { LedgerStatementResponse } from '#contract/ledger.ts';
import { LedgerPeriodList } from '#contract/ledger-periods.ts';
import { toQueryString } from '#contract/paths.ts';
import { recordOpeningBalances } from '../../../custody/sandbox/engine/movements.ts';
import { localTime } from '../../../http/wall-clock.ts';
import { appTest } from '../../../test/app-test.ts';
import { createVault } from '../../../test/fixtures.ts';
import { jsonBody, lastMonth, proposeClose } from '../../../test/ledger-periods.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { monthBounds, monthOf, nextMonth } from './month.ts';

/**
 * Closing a month: proposed by one admin, decided on its held item by
 * another, never by the proposer; once closed its statements never change,
 * and what arrives later dated inside it is booked at the start of the next
 * month, shown as a late adjustment there.
 */

const DAY = 86_400_000;

async function statementText(t: TestApp, vaultId: string, from: Date, to: Date) {
  const res = await t.admin.request(
    `${pathOf(ledgerStatement)}${toQueryString({
      vaultId,
      from: from.toISOString(),
      to: to.toISOString(),
      limit: 100,
    })}`,
  );
  expect(res.status).toBe(200);
  return res.text();
}

async function periods(t: TestApp) {
  const res = await t.admin.json(pathOf(listLedgerPeriods));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return LedgerPeriodList.parse(res.body);
}

describe('closing a month of the ledger', () => {
  appTest(
    'is decided by a second admin; the closed month’s statement never changes, and a late movement is an adjustment in the next month',
    async ({ t }) => {
      const month = lastMonth(t.clock.now());
      const { from, to } = monthBounds(month, 'UTC');
      const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Closing Vault' });
      await recordOpeningBalances(t.db, t.orgId, [
        {
          vaultId: vault.id,
          asset: 'ETH',
          chain: 'ETHEREUM',
          amount: '2',
          at: new Date(from.getTime() + 3 * DAY),
        },
      ]);
      expect((await periods(t)).nextMonth).toBe(month);
      const before = await statementText(t, vault.id, from, to);

      const proposer = await t.signIn('admin', { name: 'Pat Proposer' });
      const decider = await t.signIn('admin', { name: 'Dee Decider' });
      const period = await proposeClose(proposer, month);
      expect(period).toMatchObject({ month, timeZone: 'UTC', status: 'PENDING', closings: null });
      expect(period.from).toBe(from.toISOString());

      // Its card: the period, the closing balance per asset and the digest it freezes.
      const card = await decider.json(pathOf(approvalCard, { entityId: period.heldItemId }));
      expect(card.status, JSON.stringify(card.body)).toBe(200);
      const statement = LedgerStatementResponse.parse(
        JSON.parse(await statementText(t, vault.id, from, to)),
      );
      expect(card.body).toMatchObject({
        card: {
          intent: {
            kind: 'LEDGER_PERIOD',
            change: {
              lines: expect.arrayContaining([
                { label: 'Closing balance, ETH on ETHEREUM', before: null, after: '2' },
                {
                  label: 'Statement digest (SHA-256)',
                  before: null,
                  after: expect.stringMatching(/^[0-9a-f]{64}$/),
                },
              ]),
            },
          },
          status: { state: 'PENDING' },
        },
      });

      // Never the proposer; nor twice while one waits.
      const own = await proposer.json(
        pathOf(decideApprovable, { entityId: period.heldItemId }),
        jsonBody('POST', { action: 'approve' }),
      );
      expect(own.status, JSON.stringify(own.body)).toBe(403);
      const again = await decider.json(pathOf(proposeLedgerClose), jsonBody('POST', { month }));
      expect(again).toMatchObject({
        status: 409,
        body: {
          fields: [{ field: 'month', message: expect.stringMatching(/waits for its decision/) }],
        },
      });

      const decided = await decider.json(
        pathOf(decideApprovable, { entityId: period.heldItemId }),
        jsonBody('POST', { action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const closed = (await periods(t)).results.find((p) => p.id === period.id);
      const digest = createHash('sha256')
        .update(canonicalJson(statement.totals))
        .update(statement.results.map((l) => `\n${canonicalJson(l)}`).join(''))
        .digest('hex');
      expect(closed).toMatchObject({
        status: 'CLOSED',
        closings: [{ asset: 'ETH', chain: 'ETHEREUM', closing: '2' }],
        digest,
      });
      expect(digest).not.toBe(
        createHash('sha256').update(canonicalJson(statement.totals)).digest('hex'),
      );

      // Recorded now, dated inside the closed month: booked at the next month's start.
      const happened = new Date(from.getTime() + 10 * DAY);
      await recordOpeningBalances(t.db, t.orgId, [
        { vaultId: vault.id, asset: 'ETH', chain: 'ETHEREUM', amount: '0.5', at: happened },
      ]);
      expect(await statementText(t, vault.id, from, to)).toBe(before);
      const next = LedgerStatementResponse.parse(
        JSON.parse(await statementText(t, vault.id, to, new Date(t.clock.now().getTime() + 1))),
      );
      expect(next.totals).toMatchObject([
        { asset: 'ETH', opening: '2', amounts: '0.5', closing: '2.5' },
      ]);
      expect(next.results).toMatchObject([
        {
          at: to.toISOString(),
          amount: '0.5',
          kind: 'ADJUSTMENT',
          valueAt: happened.toISOString(),
        },
      ]);
      // The files say so too: the CSV's value time, the printable page's note, in the member's zone.
      const nextPeriod = {
        vaultId: vault.id,
        from: to.toISOString(),
        to: new Date(t.clock.now().getTime() + 1).toISOString(),
      };
      const csv = await t.admin.request(
        `${pathOf(ledgerStatement)}${toQueryString({ ...nextPeriod, format: 'csv' })}`,
      );
      expect(csv.status).toBe(200);
      const rows = Papa.parse<Record<string, string>>(await csv.text(), { header: true }).data;
      expect(rows.filter((r) => r.kind === 'ADJUSTMENT')).toMatchObject([
        {
          time: localTime(to.toISOString(), 'UTC'),
          amount: '0.5',
          valueTime: localTime(happened.toISOString(), 'UTC'),
        },
      ]);
      expect(rows.find((r) => r.kind === 'OPENING')).toMatchObject({ valueTime: '' });
      const html = await t.admin.request(
        `${pathOf(ledgerStatement)}${toQueryString({ ...nextPeriod, format: 'html' })}`,
      );
      expect(html.status).toBe(200);
      expect(await html.text()).toContain(
        `Late: happened ${localTime(happened.toISOString(), 'UTC')}, in a period already closed`,
      );

      // Months close in order, once ended: the next is the one after, not yet over.
      const listed = await periods(t);
      expect(listed).toMatchObject({ timeZone: 'UTC', nextMonth: null });
      const skipped = await decider.json(
        pathOf(proposeLedgerClose),
        jsonBody('POST', { month: nextMonth(nextMonth(month)) }),
      );
      expect(skipped).toMatchObject({
        status: 409,
        body: { fields: [{ field: 'month', message: expect.stringMatching(/close in order/) }] },
      });
      const current = await decider.json(
        pathOf(proposeLedgerClose),
        jsonBody('POST', { month: monthOf(t.clock.now(), 'UTC') }),
      );
      expect(current).toMatchObject({
        status: 409,
        body: {
          fields: [{ field: 'month', message: expect.stringMatching(/has not ended yet/) }],
        },
      });
    },
  );

  appTest(
    'is an admin’s of the whole organization; a bad month names the field',
    async ({ t, viewer, subOrgId }) => {
      expect((await viewer.json(pathOf(listLedgerPeriods))).status).toBe(200);
      const refused = await viewer.json(
        pathOf(proposeLedgerClose),
        jsonBody('POST', { month: '2020-01' }),
      );
      expect(refused.status).toBe(403);
      const restricted = await t.signIn('admin', { subOrgIds: [subOrgId] });
      expect(await restricted.json(pathOf(listLedgerPeriods))).toMatchObject({
        status: 403,
        body: { code: 'OUTSIDE_ADMIN_SCOPE' },
      });
      const bad = await t.admin.json(
        pathOf(proposeLedgerClose),
        jsonBody('POST', { month: '2020-13' }),
      );
      expect(bad).toMatchObject({
        status: 400,
        body: { fields: [{ field: 'month', message: expect.stringMatching(/YYYY-MM/) }] },
      });
    },
  );
});
