import { randomUUID } from 'node:crypto';
import type { ChangeRequestEntityType, CreatorType } from '#contract/enums.ts';
import { changeRequests } from '../../db/schema/sandbox.ts';
import { canonicalJson } from '../../protocol/canonical-json.ts';
import type { CustodyActor } from '../call-context.ts';
import type { Executor } from './engine/transitions.ts';

/**
 * What opening a change request takes, shared by everything the sandbox
 * creates PENDING (transactions in engine/create.ts, bank accounts in
 * capabilities/bank-accounts/sandbox/create.ts, the seed): its creator and
 * the message its approver signs. Deciding it is approvals' own
 * (capabilities/approvals/sandbox/).
 */

export type { ChangeRequestEntityType };

export interface ApprovalMessageInput {
  approvalId: string;
  changeRequestId: string;
  entityType: ChangeRequestEntityType;
  entityId: string;
  orgId: string;
  createdAt: Date;
  /** A change to an existing entity (an approved contact's new asset list): signed with the rest. */
  proposedChange?: { assetList: string[] } | null;
}

/**
 * The text an approver signs: everything that identifies the
 * decision, as canonical JSON so a signature made by any client over these
 * exact bytes verifies.
 */
export function approvalMessage(input: ApprovalMessageInput): string {
  return canonicalJson({
    type: 'CHANGE_REQUEST_APPROVAL',
    approvalId: input.approvalId,
    changeRequestId: input.changeRequestId,
    entityType: input.entityType,
    entityId: input.entityId,
    orgId: input.orgId,
    createdAt: input.createdAt.toISOString(),
    ...(input.proposedChange ? { proposedChange: input.proposedChange } : {}),
  });
}

/**
 * createdById of what is created with no actor: only possible below the HTTP
 * layer (the seed, in-process tests), since every route needs credentials.
 */
const ANONYMOUS_CREATOR_ID = 'sandbox-anonymous';

/**
 * Who a new transaction or bank account (and its change request) names as
 * its creator: the caller, or the anonymous creator, whom nobody can match
 * when deciding (capabilities/approvals/sandbox/policy.ts). One rule for
 * both kinds of entity.
 */
export function creatorOf(actor: CustodyActor | undefined): { id: string; type: CreatorType } {
  return actor
    ? { id: actor.id, type: actor.type }
    : { id: ANONYMOUS_CREATOR_ID, type: 'ANONYMOUS' };
}

/**
 * Opens the PENDING change request an entity waits on, with the message its
 * approver signs, inside the caller's database transaction.
 */
export async function openChangeRequest(
  tx: Pick<Executor, 'insert'>,
  input: {
    orgId: string;
    entityType: ChangeRequestEntityType;
    entityId: string;
    creator: { id: string; type: CreatorType };
    now: Date;
    proposedChange?: { assetList: string[] };
  },
): Promise<void> {
  const { orgId, entityType, entityId, creator, now, proposedChange } = input;
  const changeRequestId = randomUUID();
  const approvalId = randomUUID();
  await tx.insert(changeRequests).values({
    id: changeRequestId,
    orgId,
    entityType,
    entityId,
    status: 'PENDING',
    approvalId,
    approvalMessage: approvalMessage({
      approvalId,
      changeRequestId,
      entityType,
      entityId,
      orgId,
      createdAt: now,
      proposedChange,
    }),
    ...(proposedChange ? { proposedChange } : {}),
    createdById: creator.id,
    createdByType: creator.type,
    createdAt: now,
    updatedAt: now,
  });
}
