import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { canonicalJson, type ApprovalCard } from '#contract/approval-card.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { ledgerStatement } from '#contract/endpoints/ledger.ts';
import { listLedgerPeriods } from '#contract/endpoints/ledger-periods.ts';
import { LedgerStatementResponse } from '#contract/ledger.ts';
import { LedgerPeriodList } from '#contract/ledger-periods.ts';
import { toQueryString } from '#contract/paths.ts';
import { recordOpeningBalances } from '../../../custody/sandbox/engine/movements.ts';
import { ledgerPeriods } from '../../../db/schema/console.ts';
import { appTest } from '../../../test/app-test.ts';
import { createVault } from '../../../test/fixtures.ts';
import { jsonBody, lastMonth, proposeClose } from '../../../test/ledger-periods.ts';
import type { StaffSession } from '../../../test/staff-session.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { monthBounds } from './month.ts';

const DAY = 86_400_000;

/** The card's lines a decider reads: each closing balance, and the digest. */
async function cardLines(decider: StaffSession, heldItemId: string) {
  const res = await decider.json(pathOf(approvalCard, { entityId: heldItemId }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const card = (res.body as { card: ApprovalCard }).card;
  return Object.fromEntries(
    (card.intent.change?.lines ?? []).map((l) => [l.label, l.after] as const),
  );
}

/** The organization's statement of [from, to), page by page, digested as the close digests it. */
async function organizationDigest(t: TestApp, from: Date, to: Date) {
  const hash = createHash('sha256');
  let cursor: string | null = null;
  let first = true;
  do {
    const res = await t.admin.request(
      `${pathOf(ledgerStatement)}${toQueryString({
        from: from.toISOString(),
        to: to.toISOString(),
        limit: 100,
        ...(cursor ? { cursor } : {}),
      })}`,
    );
    expect(res.status).toBe(200);
    const page = LedgerStatementResponse.parse(await res.json());
    if (first) hash.update(canonicalJson(page.totals));
    first = false;
    for (const line of page.results) hash.update(`\n${canonicalJson(line)}`);
    cursor = page.nextCursor;
  } while (cursor);
  return hash.digest('hex');
}

const DIGEST = 'Statement digest (SHA-256)';
const ETH = 'Closing balance, ETH on ETHEREUM';

describe('a pending close’s card', () => {
  appTest(
    'is computed when proposed and again only when a movement lands in the month; what is approved is the month as it stands',
    async ({ t }) => {
      const month = lastMonth(t.clock.now());
      const { from, to } = monthBounds(month, 'UTC');
      const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Card Vault' });
      const opening = (amount: string, at: Date) =>
        recordOpeningBalances(t.db, t.orgId, [
          { vaultId: vault.id, asset: 'ETH', chain: 'ETHEREUM', amount, at },
        ]);
      await opening('2', new Date(from.getTime() + 3 * DAY));
      const stored = async (id: string) =>
        (
          await t.db
            .select()
            .from(ledgerPeriods)
            .where(eq(ledgerPeriods.id, Number(id)))
        )[0]?.cardFacts;

      const proposer = await t.signIn('admin', { name: 'Card Proposer' });
      const decider = await t.signIn('admin', { name: 'Card Decider' });
      const period = await proposeClose(proposer, month);
      // Computed with the proposal: the digest the statement itself gives.
      const proposed = await stored(period.id);
      expect(proposed?.digest).toBe(await organizationDigest(t, from, to));
      const first = await cardLines(decider, period.heldItemId);
      expect(first[DIGEST]).toBe(proposed?.digest);
      expect(first[ETH]).toBe(proposed?.closings.find((c) => c.asset === 'ETH')?.closing);

      // A movement after the month: the card stands, not read again.
      await opening('1', new Date(to.getTime() + DAY));
      expect(await cardLines(decider, period.heldItemId)).toEqual(first);
      expect(await stored(period.id)).toEqual(proposed);

      // One booked inside the month: the next read shows the month as it now stands.
      await opening('0.25', new Date(from.getTime() + 5 * DAY));
      const changed = await cardLines(decider, period.heldItemId);
      expect(changed[DIGEST]).not.toBe(first[DIGEST]);
      expect(changed[DIGEST]).toBe(await organizationDigest(t, from, to));
      expect((await stored(period.id))?.through ?? 0).toBeGreaterThan(proposed?.through ?? 0);

      // Approved: the close freezes the month as it stands, the card's figures.
      const decided = await decider.json(
        pathOf(decideApprovable, { entityId: period.heldItemId }),
        jsonBody('POST', { action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const listed = LedgerPeriodList.parse(
        (await t.admin.json(pathOf(listLedgerPeriods))).body,
      ).results.find((p) => p.id === period.id);
      expect(listed).toMatchObject({ status: 'CLOSED', digest: changed[DIGEST] });
    },
  );
});
