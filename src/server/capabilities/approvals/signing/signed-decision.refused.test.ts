import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { approvalSignatures, approvalVotes } from '../../../db/schema/console.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { publishPolicy } from '../../../test/policies.ts';
import { signIntent, withPasskey } from '../../../test/signed-intents.ts';
import { proposeBankAccount } from '../../../test/staff-approvals.ts';

/**
 * A signed decision is stored only once the backend has decided it: one the
 * backend refuses leaves no signature row claiming the member decided.
 */

/** Entities whose decisions the custody backend refuses, as it may (a conflict on its side). */
const refusing = new Set<string>();
/** Entities whose decisions the custody backend makes, its answer then lost to a timeout. */
const timingOut = new Set<string>();

const refusesSome = (backend: CustodyBackend): CustodyBackend => ({
  ...backend,
  decideApproval: async (ctx, approvalId, request) => {
    const entityId = await backend.approvalEntityId?.(ctx, approvalId);
    if (entityId && refusing.has(entityId))
      throw new ApiError(409, ERROR_CODES.conflict, 'The custody backend refused this decision');
    const answer = await backend.decideApproval(ctx, approvalId, request);
    if (entityId && timingOut.has(entityId))
      throw new ApiError(
        504,
        ERROR_CODES.upstreamTimeout,
        'The custody backend did not answer in time',
      );
    return answer;
  },
});

const appTest = appTestWith({ wrapBackend: refusesSome });

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('a signed decision the backend refuses', () => {
  appTest(
    'leaves no signature; the same decision accepted later is stored once',
    async ({ t, initiator, subOrgId }) => {
      const ada = await withPasskey(t, 'Ada Refused');
      const id = await proposeBankAccount(initiator, subOrgId, { accountNumber: '990000111' });
      const message = await ada.session.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);

      refusing.add(id);
      const refused = await ada.session.json(
        paths.approvalAction(approvalId),
        send({ action: 'approve', intent: await signIntent(ada, id) }),
      );
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      const stored = () =>
        t.db.select().from(approvalSignatures).where(eq(approvalSignatures.entityId, id));
      expect(await stored()).toEqual([]);

      refusing.delete(id);
      const accepted = await ada.session.json(
        paths.approvalAction(approvalId),
        send({ action: 'approve', intent: await signIntent(ada, id) }),
      );
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect(await stored()).toEqual([expect.objectContaining({ decision: 'APPROVED' })]);
    },
  );

  appTest(
    'a decision the backend made, its answer lost to a timeout, keeps its signature',
    async ({ t, initiator, subOrgId }) => {
      const ben = await withPasskey(t, 'Ben Timed Out');
      const id = await proposeBankAccount(initiator, subOrgId, { accountNumber: '990000222' });
      const message = await ben.session.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);

      timingOut.add(id);
      const lost = await ben.session.json(
        paths.approvalAction(approvalId),
        send({ action: 'approve', intent: await signIntent(ben, id) }),
      );
      expect(lost.status, JSON.stringify(lost.body)).toBe(504);
      // The decision stands (the backend made it): what it was signed over is kept with it.
      const stored = await t.db
        .select()
        .from(approvalSignatures)
        .where(eq(approvalSignatures.entityId, id));
      expect(stored).toEqual([
        expect.objectContaining({ decision: 'APPROVED', staffName: 'Ben Timed Out' }),
      ]);
      expect(stored[0]?.assertion).not.toBeNull();
    },
  );

  appTest(
    'under a rule the console counts, a decision sent though its answer was lost keeps its signature',
    async ({ t, initiator, subOrgId }) => {
      // The console counts the votes: one approval from an approver or an admin.
      const editor = await t.signIn('admin');
      const reviewer = await t.signIn('admin');
      await publishPolicy(
        t.db,
        'accounts',
        {
          rules: [],
          fallback: {
            action: 'ALLOW',
            approvals: 1,
            approvers: { kinds: ['approver', 'admin'], memberIds: [] },
            apiClientMayApproveOwn: false,
          },
        },
        { editor, reviewer, now: t.clock.now() },
      );
      const cy = await withPasskey(t, 'Cy Counted');
      const id = await proposeBankAccount(initiator, subOrgId, { accountNumber: '990000333' });
      const message = await cy.session.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);

      timingOut.add(id);
      const lost = await cy.session.json(
        paths.approvalAction(approvalId),
        send({ action: 'approve', intent: await signIntent(cy, id) }),
      );
      expect(lost.status, JSON.stringify(lost.body)).toBe(504);
      const [vote] = await t.db.select().from(approvalVotes).where(eq(approvalVotes.entityId, id));
      expect(vote).toMatchObject({ actorId: cy.session.member.id, decision: 'APPROVE' });
      const stored = await t.db
        .select()
        .from(approvalSignatures)
        .where(eq(approvalSignatures.entityId, id));
      expect(stored).toEqual([
        expect.objectContaining({ decision: 'APPROVED', staffName: 'Cy Counted' }),
      ]);
    },
  );
});
