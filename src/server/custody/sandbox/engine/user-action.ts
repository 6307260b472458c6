import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  operationIdOf,
  parseOperationId,
  type OperationMessageResponse,
  type OperationUserActionRequest,
  type OperationUserActionResponse,
} from '#contract/operations.ts';
import type { Operation } from '#contract/transaction.ts';
import { recordStatusChange } from '../../../capabilities/webhooks/sandbox/outbox.ts';
import type { Database } from '../../../db/client.ts';
import { apiUsers, transactions } from '../../../db/schema/sandbox.ts';
import { verifyApprovalSignature } from '../../../protocol/api-token.ts';
import type { CustodyActor } from '../../call-context.ts';
import type { TransactionRow } from '../mappers.ts';
import { vaultWithWallet } from './parties.ts';
import { transition, type Executor } from './transitions.ts';

/**
 * An operation's user action. A vault that names API users among its signers
 * (createVault's `vaultSigners`) does not have the sandbox sign for it alone:
 * once a transaction from it is APPROVED (its approval rule met, every
 * decision counted there), its operation waits, PENDING, for one of those
 * signers. The signer reads the operation's message and signs it with their
 * API key, as a change-request approval's message is signed. Approved, the
 * operation goes PROCESSING and the lifecycle signs and sends as before;
 * refused, the operation is CANCELLED and the transaction ends FAILED, having
 * reserved and moved nothing (nothing is held before signing).
 *
 * It is not a vote under the transaction's rule: the operation exists only
 * after that rule let the transaction through, so a user action can never
 * move a transaction the rule still holds.
 */

export interface UserActionPlan {
  operationId: string;
  message: string;
  /** The API users the vault names among its signers, when the operation was opened. */
  signerIds: string[];
  status: 'PENDING' | 'APPROVED' | 'REJECTED';
  decidedById?: string;
  decidedAt?: string;
}

export function userActionOf(simulation: unknown): UserActionPlan | null {
  if (!simulation || typeof simulation !== 'object') return null;
  const action = (simulation as { userAction?: UserActionPlan }).userAction;
  return action && typeof action.operationId === 'string' ? action : null;
}

function operationMessage(row: TransactionRow, operationId: string, vaultName: string): string {
  const what = row.amount && row.asset ? `${row.amount} ${row.asset}` : row.category;
  const to = row.destination?.name ?? row.destination?.address ?? row.destination?.id;
  return [
    `Sign operation ${operationId}`,
    `of transaction ${row.id} (${row.category}): ${what} on ${row.blockChain}`,
    `from vault ${vaultName}${to ? ` to ${to}` : ''}`,
  ].join(' ');
}

/**
 * At APPROVED: true when the transaction waits for a vault signer (its
 * operation opened now, or still waiting), false when it goes on to signing.
 */
export async function awaitsUserAction(
  tx: Executor,
  row: TransactionRow,
  at: Date,
): Promise<boolean> {
  const action = userActionOf(row.simulation);
  if (action) {
    if (action.status === 'APPROVED') return false;
    await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
    return true;
  }
  if (!row.vaultId) return false;
  const { vault } = await vaultWithWallet(tx, row.orgId, row.vaultId, row.blockChain);
  const signerIds = (vault?.signers ?? []).filter((s) => s.type === 'API_USER').map((s) => s.id);
  if (!vault || signerIds.length === 0) return false;
  const operationId = operationIdOf(row.id, 1);
  const operation: Operation = {
    id: operationId,
    operationId,
    sequence: 1,
    type: 'TRANSFER',
    status: 'PENDING',
    ...(row.source ? { source: row.source } : {}),
    ...(row.destination ? { destination: row.destination } : {}),
  };
  const userAction: UserActionPlan = {
    operationId,
    message: operationMessage(row, operationId, vault.vaultName),
    signerIds,
    status: 'PENDING',
  };
  await tx
    .update(transactions)
    .set({
      operations: [operation],
      simulation: { ...(row.simulation as object | null), userAction },
      nextStepAt: null,
      updatedAt: at,
    })
    .where(and(eq(transactions.id, row.id), eq(transactions.status, 'APPROVED')));
  await recordStatusChange(tx, {
    transactionId: row.id,
    orgId: row.orgId,
    at,
    statusChanged: false,
    operationsBefore: row.operations,
  });
  return true;
}

const notFound = (operationId: string) =>
  new ApiError(
    404,
    ERROR_CODES.notFound,
    `No operation "${operationId}" waits for a user action: an operation waits only once its transaction is approved, on a vault that names API users among its signers`,
  );

async function waitingRow(
  db: Executor,
  orgId: string | null,
  operationId: string,
  lock: boolean,
): Promise<{ row: TransactionRow; action: UserActionPlan }> {
  const ids = parseOperationId(operationId);
  if (!orgId || !ids) throw notFound(operationId);
  const query = db
    .select()
    .from(transactions)
    .where(and(eq(transactions.id, ids.transactionId), eq(transactions.orgId, orgId)));
  const [row] = lock ? await query.for('update') : await query;
  const action = row ? userActionOf(row.simulation) : null;
  if (!row || !action || action.operationId !== operationId) throw notFound(operationId);
  if (action.status !== 'PENDING' || row.status !== 'APPROVED')
    throw new ApiError(
      409,
      ERROR_CODES.alreadyDecided,
      `Operation ${operationId} was already ${action.status === 'PENDING' ? `ended with its transaction (${row.status})` : action.status.toLowerCase()}${action.decidedAt ? ` at ${action.decidedAt}` : ''}; it cannot be acted on again`,
    );
  return { row, action };
}

/**
 * Vault signers are API users: a signed-in member acts on transactions
 * through their approval rule, never on an operation. A 400 rather than a
 * 403: the member's role may act here, the request is simply not theirs to make.
 */
function refuseStaff(actor: CustodyActor | undefined, operationId: string): void {
  if (actor?.type === 'STAFF')
    throw new ApiError(
      400,
      ERROR_CODES.notVaultSigner,
      `Operation ${operationId} is acted on by the vault's signers, who are API users; members decide on its transaction instead`,
    );
}

export async function operationMessageFor(
  db: Database,
  orgId: string | null,
  actor: CustodyActor | undefined,
  operationId: string,
): Promise<OperationMessageResponse> {
  refuseStaff(actor, operationId);
  const { row, action } = await waitingRow(db, orgId, operationId, false);
  return { operationId, transactionId: row.id, message: action.message, status: 'PENDING' };
}

export async function decideUserAction(
  db: Database,
  input: {
    orgId: string | null;
    actor: CustodyActor | undefined;
    operationId: string;
    body: OperationUserActionRequest;
    now: Date;
  },
): Promise<OperationUserActionResponse> {
  const { orgId, actor, operationId, body, now } = input;
  if (!actor)
    throw new ApiError(401, ERROR_CODES.unauthorized, 'Only a vault signer acts on an operation');
  refuseStaff(actor, operationId);
  if (body.operationId !== undefined && body.operationId !== operationId) {
    const message = `operationId "${body.operationId}" is not the operation of this path (${operationId})`;
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'operationId', message }]);
  }
  const { action } = await waitingRow(db, orgId, operationId, false);
  if (actor.type !== 'API_USER' || !action.signerIds.includes(actor.id))
    throw new ApiError(
      403,
      ERROR_CODES.notVaultSigner,
      `Only an API user the vault names among its signers acts on operation ${operationId}`,
    );
  const [user] = await db
    .select({ publicKey: apiUsers.publicKey })
    .from(apiUsers)
    .where(eq(apiUsers.id, actor.id))
    .limit(1);
  if (
    !user ||
    !verifyApprovalSignature(action.message, body.signatureHex.replace(/^0x/i, ''), user.publicKey)
  )
    throw new ApiError(
      403,
      ERROR_CODES.invalidApprovalSignature,
      "signatureHex does not verify: it must be the ECDSA P-256 / SHA-256 signature (DER, hex) of this operation's exact message (GET …/operation_message_to_sign/), made with this API user's private key",
    );

  return db.transaction(async (tx) => {
    // Again under the row's lock: of two concurrent actions exactly one is applied.
    const { row } = await waitingRow(tx, orgId, operationId, true);
    const decided: UserActionPlan = {
      ...action,
      status: body.isApproved ? 'APPROVED' : 'REJECTED',
      decidedById: actor.id,
      decidedAt: now.toISOString(),
    };
    const status = body.isApproved ? 'PROCESSING' : 'CANCELLED';
    const operations = (row.operations ?? []).map((op) =>
      op.id === operationId ? { ...op, status } : op,
    );
    const simulation = { ...(row.simulation as object | null), userAction: decided };
    if (body.isApproved) {
      await tx
        .update(transactions)
        .set({ operations, simulation, nextStepAt: now, updatedAt: now })
        .where(eq(transactions.id, row.id));
      await recordStatusChange(tx, {
        transactionId: row.id,
        orgId: row.orgId,
        at: now,
        statusChanged: false,
        operationsBefore: row.operations,
      });
    } else {
      await transition(tx, {
        transactionId: row.id,
        from: 'APPROVED',
        to: 'FAILED',
        at: now,
        nextStepAt: null,
        operationsBefore: row.operations,
        patch: {
          operations,
          simulation,
          error: `the vault signer declined operation ${operationId}`,
        },
      });
    }
    return {
      success: true,
      operationId,
      transactionId: row.id,
      status,
      transactionStatus: body.isApproved ? 'APPROVED' : 'FAILED',
    };
  });
}
