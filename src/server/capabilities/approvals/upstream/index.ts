import { ERROR_CODES } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import {
  ApprovalActionResponse,
  ApprovalMessageResponse,
  type ApprovalActionRequest,
} from '#contract/approvals.ts';
import { signApprovalMessage } from '../../../protocol/api-token.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyContext } from '../../../custody/backend.ts';
import {
  approvalEntity,
  creatorsOf,
  recordApproval,
  unresolvedBankAccountIntents,
} from '../../../custody/upstream/creators.store.ts';
import { UpstreamFailure } from '../../../custody/upstream/upstream-client.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { BankAccountsPort } from '../../bank-accounts/port.ts';
import type { TransactionsPort } from '../../transactions/port.ts';
import type { ApprovalsPort } from '../port.ts';

/**
 * Change-request approvals through upstream. Upstream knows one API user,
 * which may decide what it created itself; the console holds its members to
 * four-eyes first, and only then signs the approval message with the API
 * user's key. The audit row names the member (the audit middleware records
 * the request's staff actor).
 *
 * A bank account whose create answer was lost or has not arrived yet has no
 * creator record; the member whose unresolved proposal it matches (same
 * fingerprint, recorded no later than the account was created) may be its
 * creator, and is refused too (FOUR_EYES_UNRESOLVED): the console cannot
 * tell, so it assumes the worst.
 */

const FOUR_EYES_MESSAGE =
  'Four-eyes rule: you created this request; another member must decide (approve or reject) it';
const FOUR_EYES_UNRESOLVED_MESSAGE =
  'Four-eyes rule: this bank account matches one you proposed whose answer the console has not received, so you may be its creator; another member must decide (approve or reject) it';

/** Clocks differ between the console and upstream: a minute's slack when matching times. */
const CLOCK_SLACK_MS = 60_000;

/**
 * The entities an approval is about, read through their own capabilities'
 * ports: four-eyes needs a transaction's externalId and an account's
 * fingerprint.
 */
interface Entities {
  transactions: Pick<TransactionsPort, 'getTransaction'>;
  bankAccounts: Pick<BankAccountsPort, 'getBankAccount'>;
}

/** Who created an entity through this console (known), and who may have (an unresolved intent). */
interface Creators {
  known: string[];
  possible: string[];
}

function unlessNotFound(error: unknown): undefined {
  if (error instanceof ApiError && error.status === 404) return undefined;
  throw error;
}

export function approvalsUpstream(deps: UpstreamDeps & Entities): ApprovalsPort {
  const { db } = deps;

  async function getApprovalMessage(
    ctx: CustodyContext,
    entityId: string,
  ): Promise<ApprovalMessageResponse> {
    const answer = await deps.read(
      ctx,
      ApprovalMessageResponse,
      `${paths.approvalMessage()}${toQueryString({ entityId })}`,
    );
    // A decision names only the approval id: remember whose it is.
    await recordApproval(db, answer.approvalId, entityId, deps.clock.now());
    return answer;
  }

  /** Who created the entity through this console, or may have. */
  async function creators(ctx: CustodyContext, entityId: string): Promise<Creators> {
    // Transactions are recorded by externalId too (before sending), so look it up.
    const transaction = await deps.transactions.getTransaction(ctx, entityId).catch(unlessNotFound);
    if (transaction) {
      return { known: await creatorsOf(db, entityId, transaction.externalId), possible: [] };
    }
    const known = await creatorsOf(db, entityId);
    const account = await deps.bankAccounts.getBankAccount(ctx, entityId).catch(unlessNotFound);
    if (!account) return { known, possible: [] };
    // Only a proposal recorded before the account existed can be the one that made it.
    const createdAt = account.createdAt ? Date.parse(account.createdAt) : Number.NaN;
    const notAfter = Number.isNaN(createdAt) ? null : new Date(createdAt + CLOCK_SLACK_MS);
    const possible = await unresolvedBankAccountIntents(db, deps.fingerprint(account), notAfter);
    return { known, possible };
  }

  async function decideApproval(
    ctx: CustodyContext,
    approvalId: string,
    request: ApprovalActionRequest,
  ): Promise<ApprovalActionResponse> {
    const actor = ctx.actor;
    if (actor?.type !== 'STAFF') {
      throw new ApiError(401, ERROR_CODES.unauthorized, 'approving needs a signed-in staff member');
    }
    const entityId = await approvalEntity(db, approvalId);
    if (!entityId) {
      throw new ApiError(
        404,
        ERROR_CODES.notFound,
        `No approval with id "${approvalId}"; open the entity's approval message first`,
      );
    }
    const { known, possible } = await creators(ctx, entityId);
    if (known.includes(actor.id)) {
      throw new ApiError(403, ERROR_CODES.fourEyes, FOUR_EYES_MESSAGE);
    }
    if (possible.includes(actor.id)) {
      throw new ApiError(403, ERROR_CODES.fourEyesUnresolved, FOUR_EYES_UNRESOLVED_MESSAGE);
    }
    // Sign the message as it stands now, and only for the approval the member is deciding.
    const current = await getApprovalMessage(ctx, entityId);
    if (current.approvalId !== approvalId) {
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `Approval "${approvalId}" is no longer the current change request of ${entityId}; reload it`,
      );
    }
    const body = {
      action: request.action,
      signature: signApprovalMessage(current.message, deps.privateKey),
      ...(request.reason ? { reason: request.reason } : {}),
    };
    try {
      return await deps.call(ctx, ApprovalActionResponse, {
        method: 'POST',
        path: paths.approvalAction(approvalId),
        body,
        retry: false,
      });
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      // Never sent twice blindly: a decided request answers 409 ALREADY_DECIDED on its message.
      throw new UpstreamFailure(
        error.reason,
        `${error.message.replace(/ \(request id .*\)$/, '')}; whether the decision was recorded is not known yet. Reload the ${deps.client.host} entity before deciding again`,
        ctx.requestId,
      );
    }
  }

  return {
    getApprovalMessage,
    decideApproval,
    approvalEntityId: (_ctx, approvalId) => approvalEntity(db, approvalId),
  };
}
