import { and, eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/common.ts';
import { bankAccounts, contacts, type changeRequests } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import {
  approveTransaction,
  declineTransaction,
} from '../../../custody/sandbox/engine/approval-outcome.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * What deciding a change request does to its entity. Runs inside the database
 * transaction that records the decision: if the entity cannot take it (it
 * left PENDING some other way), the whole decision rolls back with a 409.
 */

export type ChangeRequestDecision = 'APPROVED' | 'REJECTED';

type ChangeRequestRow = typeof changeRequests.$inferSelect;

/**
 * What a decision does to an entity a capability owns, false when it cannot
 * take it. Each lives beside its entity (`capabilities/bank-accounts/sandbox/decision.ts`,
 * `capabilities/contacts/sandbox/decision.ts`) and the sandbox's composition
 * hands them here: approvals never reaches into another capability's sandbox.
 */
export type EntityDecision = (
  db: Executor,
  request: ChangeRequestRow,
  approve: boolean,
  at: Date,
) => Promise<boolean>;

export interface DecisionEffects {
  BANK_ACCOUNT: EntityDecision;
  CONTACT: EntityDecision;
}

export async function applyDecision(
  db: Executor,
  request: ChangeRequestRow,
  decision: ChangeRequestDecision,
  at: Date,
  effects: DecisionEffects,
): Promise<void> {
  const approve = decision === 'APPROVED';
  let applied: boolean;
  switch (request.entityType) {
    case 'BANK_ACCOUNT':
      applied = await effects.BANK_ACCOUNT(db, request, approve, at);
      break;
    case 'CONTACT':
      // Its proposal, or a change to an approved contact's asset list.
      applied = await effects.CONTACT(db, request, approve, at);
      break;
    case 'TRANSACTION':
      // The lifecycle simulator takes an approved transaction on from here.
      applied = approve
        ? await approveTransaction(db, { transactionId: request.entityId, at })
        : await declineTransaction(db, {
            transactionId: request.entityId,
            at,
            reason: request.reason,
          });
      break;
    case 'VAULT':
      // A vault has no status of its own: the decided change request is the record.
      applied = true;
      break;
    default:
      throw new Error(`change request ${request.id} has unknown entity type ${request.entityType}`);
  }
  if (!applied) {
    throw new ApiError(
      409,
      ERROR_CODES.conflict,
      `${request.entityType} ${request.entityId} is no longer PENDING, so this change request cannot change it`,
    );
  }
}

/** The sub-organization of a bank account's or contact's change request, for its event. */
export async function entitySubOrgId(
  db: Executor,
  request: ChangeRequestRow,
): Promise<string | null> {
  const table = request.entityType === 'BANK_ACCOUNT' ? bankAccounts : contacts;
  const [row] = await db
    .select({ subOrgId: table.subOrgId })
    .from(table)
    .where(and(eq(table.id, request.entityId), eq(table.orgId, request.orgId)))
    .limit(1);
  return row?.subOrgId ?? null;
}
