import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { ChangeRequestEntityType, CreatorType } from '#contract/enums.ts';
import { changeRequests, subOrgs } from '../../db/schema/sandbox.ts';
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

/**
 * A proposal's sub-organization must be this organization's (the foreign key
 * alone would accept another's): 400 naming subOrgId otherwise.
 */
export async function checkOwnSubOrg(
  tx: Pick<Executor, 'select'>,
  orgId: string,
  subOrgId: string | null | undefined,
): Promise<void> {
  if (!subOrgId) return;
  const [found] = await tx
    .select({ id: subOrgs.id })
    .from(subOrgs)
    .where(and(eq(subOrgs.id, subOrgId), eq(subOrgs.orgId, orgId)))
    .limit(1);
  if (found) return;
  const message = `subOrgId "${subOrgId}" is not a sub-organization of this organization`;
  throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'subOrgId', message }]);
}

/**
 * The entity a create just inserted (`rows`, its RETURNING), with the PENDING
 * change request it waits on opened beside it in the same transaction.
 */
export async function proposedWithRequest<T extends { id: string }>(
  tx: Pick<Executor, 'insert'>,
  rows: readonly T[],
  request: Omit<Parameters<typeof openChangeRequest>[1], 'entityId'>,
): Promise<T> {
  const [row] = rows;
  if (!row) throw new Error(`create ${request.entityType}: nothing inserted`);
  await openChangeRequest(tx, { ...request, entityId: row.id });
  return row;
}
