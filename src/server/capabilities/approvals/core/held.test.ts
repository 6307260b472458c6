import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { approvalRequirements, approvalSignatures } from '../../../db/schema/console.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { payoutKind } from '../../../test/approvable-kind/payout-kind.ts';
import { signIntent, withPasskey } from '../../../test/signed-intents.ts';
import type { ApprovableKind } from './kind.ts';

/**
 * A held kind's effect and the signature of the decision that settles it are
 * kept together or not at all: the effect's writes, the item marked decided
 * and the signature are one database transaction, so a crash between them
 * leaves no effect applied without the signature it was decided with.
 */

const payouts = payoutKind();
/** The payout's effect as a database write, through the database the core hands the kind. */
const paysInTheDatabase: ApprovableKind = {
  ...payouts.kind,
  async settle(card, entityId, outcome) {
    await card.db.execute(
      sql`insert into test_payout_effects (entity_id, outcome) values (${entityId}, ${outcome})`,
    );
  },
};
const appTest = appTestWith({ approvableKinds: [paysInTheDatabase] });

const approve = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ action: 'approve', ...(body as object) }),
});

describe('the held-kind decision', () => {
  appTest(
    'keeps the effect and the signature in one transaction: a crash keeps neither',
    async ({ t, subOrgId }) => {
      await t.db.execute(
        sql`create table if not exists test_payout_effects (entity_id text primary key, outcome text not null)`,
      );
      const pia = await withPasskey(t, 'Pia Atomic');
      const ada = await withPasskey(t, 'Ada Atomic');
      const ben = await withPasskey(t, 'Ben Atomic', 'admin');
      const payout = await payouts.propose(
        t.db,
        t.clock,
        { id: pia.session.member.id, role: 'approver' },
        { subOrgId, payee: 'Atomic Payee Ltd', amount: '610' },
      );
      const first = await ada.session.json(
        pathOf(decideApprovable, { entityId: payout.id }),
        approve({ intent: await signIntent(ada, payout.id) }),
      );
      expect(first.status, JSON.stringify(first.body)).toBe(200);

      // The signature of the settling decision cannot be written: as a crash right there.
      await t.db.execute(
        sql.raw(
          `alter table console.approval_signatures add constraint test_crash_on_keep check (entity_id <> '${payout.id}' or staff_id <> '${ben.session.member.id}')`,
        ),
      );
      const crashed = await ben.session.json(
        pathOf(decideApprovable, { entityId: payout.id }),
        approve({ intent: await signIntent(ben, payout.id) }),
      );
      expect(crashed.status).toBeGreaterThanOrEqual(500);
      const effects = await t.db.execute(
        sql`select entity_id from test_payout_effects where entity_id = ${payout.id}`,
      );
      // Both drivers answer a raw query's rows under `rows`.
      expect((effects as { rows: unknown[] }).rows).toEqual([]);
      const [row] = await t.db
        .select({ sentAt: approvalRequirements.sentAt })
        .from(approvalRequirements)
        .where(eq(approvalRequirements.entityId, payout.id));
      expect(row?.sentAt).toBeNull();
      const kept = await t.db
        .select({ staffName: approvalSignatures.staffName })
        .from(approvalSignatures)
        .where(eq(approvalSignatures.entityId, payout.id));
      expect(kept).toEqual([{ staffName: 'Ada Atomic' }]);
    },
  );
});
