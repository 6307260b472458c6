import { and, desc, eq, sql } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/common.ts';
import type {
  ApprovalActionRequest,
  ApprovalActionResponse,
  ApprovalMessageResponse,
} from '#contract/approvals.ts';
import { verifyApprovalSignature } from '../../../protocol/api-token.ts';
import type { Database } from '../../../db/client.ts';
import { apiUsers, changeRequests, organizations } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import { raiseChangeRequestEvent } from '../../../custody/sandbox/change-request-events.ts';
import {
  applyDecision,
  entitySubOrgId,
  type ChangeRequestDecision,
  type DecisionEffects,
} from './effects.ts';
import {
  ANONYMOUS_APPROVER_MESSAGE,
  decideApprovalPolicy,
  type ApprovalPolicyDecision,
} from './policy.ts';

/**
 * Change-request approvals: the message an approver signs,
 * then the decision. A change request is decided once: the decision and its
 * effect on the entity commit together, and the update only applies while the
 * request is still PENDING, so of two concurrent decisions exactly one wins.
 */

type ChangeRequestRow = typeof changeRequests.$inferSelect;

function alreadyDecided(row: ChangeRequestRow): ApiError {
  const when = row.decidedAt ? ` at ${row.decidedAt.toISOString()}` : '';
  return new ApiError(
    409,
    ERROR_CODES.alreadyDecided,
    `The change request for ${row.entityType} ${row.entityId} was already ${row.status.toLowerCase()}${when}; a decided request cannot be decided again`,
  );
}

/**
 * The entity's waiting change request, else its latest. 404 when it has none; 409
 * ALREADY_DECIDED when the latest is decided, so a client learns that there
 * is nothing left to sign rather than that the entity does not exist.
 */
export async function getApprovalMessage(
  db: Database,
  orgId: string | null,
  entityId: string,
): Promise<ApprovalMessageResponse> {
  const [row] = orgId
    ? await db
        .select()
        .from(changeRequests)
        .where(and(eq(changeRequests.orgId, orgId), eq(changeRequests.entityId, entityId)))
        // The waiting one first: a contact's asset change may be stamped the same millisecond
        // as its decided proposal, and only one request about an entity waits at a time.
        .orderBy(
          sql`${changeRequests.status} = 'PENDING' desc`,
          desc(changeRequests.createdAt),
          desc(changeRequests.id),
        )
        .limit(1)
    : [];
  if (!row) {
    throw new ApiError(404, ERROR_CODES.notFound, `No change request for entity "${entityId}"`);
  }
  if (row.status !== 'PENDING') throw alreadyDecided(row);
  return {
    approvalId: row.approvalId,
    message: row.approvalMessage,
    changeRequestId: row.id,
    entityId: row.entityId,
    entityType: row.entityType,
  };
}

export async function decideApproval(
  db: Database,
  orgId: string | null,
  actor: CustodyActor | undefined,
  approvalId: string,
  request: ApprovalActionRequest,
  now: Date,
  effects: DecisionEffects,
): Promise<ApprovalActionResponse> {
  // Before any lookup: anonymous callers learn nothing about which approvals exist.
  if (!actor) throw new ApiError(401, ERROR_CODES.unauthorized, ANONYMOUS_APPROVER_MESSAGE);

  const [found] = orgId
    ? await db
        .select({ request: changeRequests, apiUserSelfApproval: organizations.apiUserSelfApproval })
        .from(changeRequests)
        .innerJoin(organizations, eq(organizations.id, changeRequests.orgId))
        .where(and(eq(changeRequests.orgId, orgId), eq(changeRequests.approvalId, approvalId)))
        .limit(1)
    : [];
  if (!found) {
    throw new ApiError(404, ERROR_CODES.notFound, `No approval with id "${approvalId}"`);
  }
  const row = found.request;
  checkEchoedFields(row, request);
  if (row.status !== 'PENDING') throw alreadyDecided(row);

  const policy = decideApprovalPolicy({
    actor,
    changeRequest: row,
    apiUserSelfApproval: found.apiUserSelfApproval,
  });
  if (!policy.allowed) throw policyError(policy);
  if (policy.signatureRequired) await checkSignature(db, actor, row, request.signature);

  const decision: ChangeRequestDecision = request.action === 'approve' ? 'APPROVED' : 'REJECTED';
  await db.transaction(async (tx) => {
    const [decided] = await tx
      .update(changeRequests)
      .set({
        status: decision,
        decidedById: actor.id,
        decidedByType: actor.type,
        reason: request.reason || null,
        decidedAt: now,
        updatedAt: now,
      })
      .where(and(eq(changeRequests.id, row.id), eq(changeRequests.status, 'PENDING')))
      .returning();
    if (!decided) {
      throw new ApiError(
        409,
        ERROR_CODES.alreadyDecided,
        `The change request for ${row.entityType} ${row.entityId} was decided by a concurrent request; a decided request cannot be decided again`,
      );
    }
    await applyDecision(tx, decided, decision, now, effects);
    if (decided.entityType === 'BANK_ACCOUNT' || decided.entityType === 'CONTACT')
      await raiseChangeRequestEvent(tx, {
        orgId: decided.orgId,
        kind: 'DECIDED',
        entityType: decided.entityType,
        entityId: decided.entityId,
        subOrgId: await entitySubOrgId(tx, decided),
        status: decision,
        at: now,
      });
  });
  return { success: true, status: decision, id: row.id, entityId: row.entityId };
}

/**
 * The Python SDK echoes the approval's `entityId` and `message` in the
 * decision. Echoed, they must be this approval's: a mismatch means the client
 * decides something other than it believes, so nothing is decided.
 */
function checkEchoedFields(row: ChangeRequestRow, request: ApprovalActionRequest): void {
  const fields: Array<{ field: string; message: string }> = [];
  if (request.entityId !== undefined && request.entityId !== row.entityId)
    fields.push({
      field: 'entityId',
      message: `entityId "${request.entityId}" is not the entity of this approval (${row.entityType} ${row.entityId})`,
    });
  if (request.message !== undefined && request.message !== row.approvalMessage)
    fields.push({
      field: 'message',
      message:
        'message is not the message of this approval: GET …/approval_message/ again and sign what it returns',
    });
  if (fields.length > 0)
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      fields.map((f) => f.message).join('; '),
      fields,
    );
}

function policyError(policy: Extract<ApprovalPolicyDecision, { allowed: false }>): ApiError {
  return new ApiError(policy.status, policy.code, policy.message);
}

async function checkSignature(
  db: Database,
  actor: CustodyActor,
  row: ChangeRequestRow,
  signature: string | undefined,
): Promise<void> {
  if (!signature) {
    const message =
      'signature is required: sign the approval message (GET …/approval_message/?entityId=…) with your API private key, hex DER';
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'signature', message }]);
  }
  const [user] = await db
    .select({ publicKey: apiUsers.publicKey })
    .from(apiUsers)
    .where(eq(apiUsers.id, actor.id))
    .limit(1);
  if (!user || !verifyApprovalSignature(row.approvalMessage, signature, user.publicKey)) {
    throw new ApiError(
      403,
      ERROR_CODES.invalidApprovalSignature,
      "signature does not verify: it must be the ECDSA P-256 / SHA-256 signature (DER, hex) of this approval's exact message, made with this API user's private key",
    );
  }
}

/** The entity an approval is about (for the staff scope check), or null when there is no such approval. */
export async function approvalEntityId(
  db: Database,
  orgId: string | null,
  approvalId: string,
): Promise<string | null> {
  if (!orgId) return null;
  const [row] = await db
    .select({ entityId: changeRequests.entityId })
    .from(changeRequests)
    .where(and(eq(changeRequests.orgId, orgId), eq(changeRequests.approvalId, approvalId)))
    .limit(1);
  return row?.entityId ?? null;
}
