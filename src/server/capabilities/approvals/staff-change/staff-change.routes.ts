import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { decideStaffProposal, listStaffProposals } from '#contract/endpoints/staff.ts';
import { audit } from '../../../auth/audit.ts';
import { unauthorized } from '../../../auth/session-auth.ts';
import { changesAccess, getStaff } from '../../../auth/staff.store.ts';
import { pendingProposals, proposalsOnWire } from '../../../console/staff-proposals.ts';
import { staffProposals } from '../../../db/schema/console.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { decideHeld } from '../core/held.ts';
import { holdEarlierProposal } from './staff-change.ts';
import type { SigningOptions } from '../signing/signed-decision.ts';

/**
 * The Staff page's routes for proposals, kept in their wire shape: the list,
 * and the decision as a thin adapter onto the approval core (the same
 * decision as `POST /api/console/approvables/{id}/decision/`: the rule frozen
 * on the proposal says who counts, a member with a passkey signs, the change
 * is applied once), audited under the staff actions it always was.
 */
export function staffChangeRoutes(options: SigningOptions) {
  const { db } = options.auth;
  const app = new Hono<AppEnv>();

  async function signedInAdmin(c: Context<AppEnv>) {
    const session = c.get('staff');
    if (!session) throw unauthorized();
    const admin = await getStaff(db, session.id);
    if (!admin) throw unauthorized();
    return admin;
  }

  mount(app, CONSOLE_API_PREFIX, listStaffProposals, async (_input, c) => {
    const admin = await signedInAdmin(c);
    return { results: await pendingProposals(db, admin), hasNext: false, nextCursor: null };
  });

  mount(
    app,
    CONSOLE_API_PREFIX,
    decideStaffProposal,
    async ({ params: { proposalId }, body: { action } }, c) => {
      await signedInAdmin(c);
      const fields = {
        action: `staff.proposal.${action}`,
        entityType: 'STAFF_PROPOSAL',
        entityId: proposalId,
      };
      try {
        const [before] = await db
          .select()
          .from(staffProposals)
          .where(eq(staffProposals.id, proposalId));
        const target = before?.staffId ? await getStaff(db, before.staffId) : undefined;
        await holdEarlierProposal(db, options.auth.clock, proposalId);
        await decideHeld(options, c, proposalId, {
          action: action === 'approve' ? 'approve' : 'reject',
        });
        const [row] = await db
          .select()
          .from(staffProposals)
          .where(eq(staffProposals.id, proposalId));
        const [proposal] = row ? await proposalsOnWire(db, [row]) : [];
        if (!row || !proposal) throw new Error('staff proposal: decided, then gone');
        const sessionsEnded =
          row.status === 'APPROVED' &&
          (row.kind === 'reset_factor' ||
            (row.kind === 'update' &&
              !!target &&
              (changesAccess(target, row.change) || row.change.disabled === true)));
        await audit(c, options.auth, {
          ...fields,
          entityType: 'STAFF',
          entityId: row.staffId ?? proposalId,
          summary: `${action === 'approve' ? 'Approved' : 'Declined'} ${proposal.proposedBy.name}'s proposal: ${proposal.summary}${sessionsEnded ? "; the member's sessions ended" : ''}`,
          outcome: 'success',
        });
        return proposal;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        await audit(c, options.auth, {
          ...fields,
          summary: `Refused: ${error.message}`,
          outcome: error.status === 403 ? 'denied' : 'failed',
        });
        if (error.code === ERROR_CODES.signedIntentRequired)
          // This route carries no signature: the inbox's decision does.
          throw new ApiError(
            403,
            ERROR_CODES.signedIntentRequired,
            'Your decisions are signed with your passkey: decide this staff change from the Approvals inbox, where you sign the card it shows',
            error.fields,
          );
        throw error;
      }
    },
  );
  return app;
}
