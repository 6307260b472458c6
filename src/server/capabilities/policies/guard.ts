import { eq } from 'drizzle-orm';
import type { ApprovalCardIntent } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import type { ApprovalActionRequest, ApprovalActionResponse } from '#contract/approvals.ts';
import type { BankAccountCreateRequest } from '#contract/bank-account.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  describeApprovers,
  type DestinationKind,
  type FrozenRequirement,
  policyCategoryOf,
} from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import type { IntentCreateRequest, RampCreateRequest } from '#contract/ramps.ts';
import type { SwapCreateRequest } from '#contract/trades.ts';
import type { CreateTransactionRequest, Transaction } from '#contract/transaction.ts';
import type { Clock } from '../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { canonicalJson } from '#contract/approval-card.ts';
import { add } from '#contract/decimal.ts';
import { committedOutflowUsd, loadRunRow, type RowRecord } from '../payment-runs/store.ts';
import {
  isRowExternalId,
  isRowRampBody,
  rowOfContext,
  rowTransactionBody,
  type RunRowRef,
} from '../payment-runs/row-transaction.ts';
import { kindNamed, type ApprovableKind } from '../approvals/core/kind.ts';
import { approvalPolicies, staff } from '../../db/schema/console.ts';
import {
  factsNeeded,
  notCounted,
  requirementFor,
  type ItemFacts,
  type PolicyActor,
  type Tally,
} from './evaluate.ts';
import { valueContractCall } from './call-value.ts';
import { outflowLock } from './outflow-lock.ts';
import { activePolicy } from './policies.store.ts';
import {
  freezeRequirement,
  type PolicyEntityType,
  initiatorOf,
  markSent,
  recordVote,
  releaseClaim,
  requirementOf,
} from './votes.store.ts';

/**
 * Applies the approval policies to whichever custody backend answers
 * (ARCHITECTURE.md, "Approval policies"): an item is judged when it is
 * created (a blocking rule refuses it, naming the rule; otherwise the rule is
 * frozen on it), and its decisions are collected by the console, which sends
 * the custody API one approval (or the decline) only once the frozen rule is
 * satisfied. An item whose rule is today's (one approval from anyone but the
 * creator) goes straight through, as before policies existed.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A vault's outflow as a cap judges it: what the custody backend counts over
 * the last 24 hours, plus the rows of payment runs submitted from it and not
 * yet sent (a run's whole total counts from its submit). Unknown if either is.
 */
export async function vaultOutflowWithRuns(
  inner: CustodyBackend,
  db: Database,
  clock: Clock,
  ctx: CustodyContext,
  vaultId: string,
  exceptRunId?: string,
): Promise<string | null> {
  if (!inner.vaultOutflowUsd) return null;
  const [sent, committed] = await Promise.all([
    inner.vaultOutflowUsd(ctx, vaultId, new Date(clock.now().getTime() - DAY_MS)),
    committedOutflowUsd(db, vaultId, exceptRunId),
  ]);
  return sent === null || committed === null ? null : add(sent, committed);
}

const DESTINATION_KINDS: Record<string, DestinationKind> = {
  VAULT: 'VAULT',
  CONTACT: 'CONTACT',
  EXTERNAL_ADDRESS: 'EXTERNAL_ADDRESS',
  BANK_ACCOUNT: 'BANK_ACCOUNT',
  EXTERNAL_BANK_ACCOUNT: 'BANK_ACCOUNT',
};

/** Today's rule: nothing for the console to collect; the custody backend's own four-eyes applies. */
function passesThrough(requirement: FrozenRequirement): boolean {
  const { outcome } = requirement;
  return (
    outcome.action === 'ALLOW' &&
    outcome.approvals === 1 &&
    outcome.approvers.kinds.length === 0 &&
    outcome.approvers.memberIds.length === 0 &&
    outcome.apiClientMayApproveOwn
  );
}

export function progressOf(requirement: FrozenRequirement, counted: Tally) {
  return {
    ruleName: requirement.ruleName,
    required: counted.required,
    approvals: counted.approvedBy.length,
  };
}

/** A decision on an item its rule has settled: as the custody API answers one on a decided item. */
export function decidedAlready(
  entityType: PolicyEntityType,
  entityId: string,
  ruleName: string,
): ApiError {
  return new ApiError(
    409,
    ERROR_CODES.alreadyDecided,
    `${entityType} ${entityId} was already decided under rule "${ruleName}"; a decision after that counts for nothing`,
  );
}

/**
 * A second decision by someone whose first still stands on an item that
 * waits: refused, so a repeated approval never reads as progress, and a
 * change of mind is not taken silently (the first decision counted).
 */
export function decisionRecorded(
  ruleName: string,
  counted: Tally,
  earlier: { decision: 'APPROVE' | 'DECLINE'; at: Date },
): ApiError {
  const left = counted.required - counted.approvedBy.length;
  const what = earlier.decision === 'APPROVE' ? 'approved' : 'declined';
  return new ApiError(
    409,
    ERROR_CODES.decisionAlreadyRecorded,
    `You already ${what} this at ${earlier.at.toISOString()}; it waits for ${left} more ${left === 1 ? 'approval' : 'approvals'} under the rule "${ruleName}", and a decision counts once`,
  );
}

/**
 * The frozen rule's verdict on who decides (`notCounted`): the creator never (an API client
 * only where the rule lets it approve its own), only the approvers the rule names, and never
 * a member the kind's requirement leaves out (the member a change is about, an account linked
 * to the proposer's, an admin outside the scope it touches).
 */
export function refuseUnlessEligible(
  requirement: FrozenRequirement,
  initiator: PolicyActor,
  actor: PolicyActor,
): void {
  const { outcome } = requirement;
  const refused = notCounted(requirement, initiator, actor);
  if (!refused) return;
  const rule = `Rule "${requirement.ruleName}"`;
  const who =
    outcome.action === 'ALLOW' ? describeApprovers(outcome.approvers, () => 'named members') : '';
  switch (refused.why) {
    case 'BLOCKED':
      throw new ApiError(403, ERROR_CODES.policyBlocked, `${rule} blocks this`);
    case 'OWN':
      throw new ApiError(
        403,
        actor.kind === 'staff' ? ERROR_CODES.fourEyes : ERROR_CODES.selfApprovalNotAllowed,
        `${rule} does not count a decision by the item's creator; ${who} other than its creator must decide it`,
      );
    case 'EXCLUDED':
      throw new ApiError(
        403,
        ERROR_CODES.fourEyes,
        `${rule} does not count your decision: it concerns you (your own account, or a draft you edited); another of ${who} must decide it`,
      );
    case 'LINKED': {
      const how = refused.createdByThem
        ? `${refused.to.name} created your console account`
        : `you created ${refused.to.name}'s console account`;
      throw new ApiError(
        403,
        ERROR_CODES.linkedAccounts,
        `Your account and ${refused.to.name}'s are linked (${how}), so your decision would not be a second person's: one of ${who} not linked to ${refused.to.name} must decide`,
      );
    }
    case 'OUTSIDE_SCOPE':
      throw new ApiError(
        403,
        ERROR_CODES.outsideAdminScope,
        `${rule} counts only a decision by an admin of every sub-organization it touches`,
      );
    case 'NOT_ELIGIBLE':
      throw new ApiError(
        403,
        ERROR_CODES.policyNotEligible,
        `${rule} counts approvals from ${who} only; you are not one of them`,
      );
  }
}

/** Who is asking, as a rule sees them: a member with their role now, or an API client. */
export async function policyActor(db: Database, ctx: CustodyContext): Promise<PolicyActor> {
  const actor = ctx.actor;
  if (!actor || actor.type === 'API_USER') return { kind: 'api_client', id: actor?.id ?? '' };
  // Reused while the staff table is unchanged (db/read-cache.ts): a role change is a write to it.
  const [member] = await cachedRead(
    `policy-actor:${actor.id}`,
    () =>
      db
        .select({ role: staff.role, subOrgIds: staff.subOrgIds, createdBy: staff.createdBy })
        .from(staff)
        .where(eq(staff.id, actor.id)),
    [staff],
  );
  // Unknown (gone since signing in): the narrowest member there is.
  return {
    kind: 'staff',
    id: actor.id,
    role: member?.role ?? 'viewer',
    subOrgIds: member ? member.subOrgIds : [],
    createdBy: member?.createdBy ?? null,
  };
}

/**
 * The active policy of `kind`, reused while the policies table is unchanged
 * (db/read-cache.ts): publishing one is a write to it, so the next item is
 * judged by it. Every create read it, a statement each on the embedded
 * database's one thread.
 */
function currentPolicy(db: Database, kind: PolicyKind) {
  return cachedRead(`active-policy:${kind}`, () => activePolicy(db, kind), [approvalPolicies]);
}

/**
 * A create body's value in USD, or null when it cannot be priced (a rule then
 * matches it: fail closed). A contract call is worth its native amount plus
 * the tokens its data moves or allows to be taken (call-value.ts).
 */
async function draftUsd(
  inner: CustodyBackend,
  ctx: CustodyContext,
  body: CreateTransactionRequest,
  vaultId: string | undefined,
): Promise<string | null> {
  const priced = (asset: string, amount: string) =>
    inner.usdValue ? inner.usdValue(ctx, asset, body.blockChain, amount, vaultId) : null;
  if (body.category !== 'CONTRACT_CALL') return priced(body.asset, body.amount);
  const native = chainInfo(body.blockChain)?.nativeAsset;
  const nativeUsd =
    body.amount === undefined ? '0' : native ? await priced(native, body.amount) : null;
  return valueContractCall(nativeUsd, body.data, {
    token: async (contract) =>
      (await inner.tokenAt?.(ctx, body.blockChain, contract, vaultId)) ?? null,
    usd: async (asset, amount) => (await priced(asset, amount)) ?? null,
  });
}

/** The vault a create body pays from, if it names one. */
function sourceVaultOf(body: CreateTransactionRequest): string | undefined {
  if (body.category === 'CONTRACT_CALL') return body.vaultId;
  return body.source.type === 'VAULT' ? body.source.id : undefined;
}

/** What a rule can look at in a transaction's create body, read as the create would be judged. */
async function draftFacts(
  inner: CustodyBackend,
  db: Database,
  clock: Clock,
  ctx: CustodyContext,
  body: CreateTransactionRequest,
  initiator: PolicyActor,
  needs: { usd: boolean; outflow: boolean },
): Promise<ItemFacts> {
  const vaultId = sourceVaultOf(body);
  // An unknown vault (or one outside the member's scope) is the create's to refuse, with its
  // own message and field: judged here as belonging to no sub-organization.
  const vault = vaultId
    ? await inner.getVault(ctx, vaultId).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return undefined;
        throw error;
      })
    : undefined;
  const asset = 'asset' in body ? body.asset : undefined;
  // Read only when a rule looks at it (factsNeeded): upstream, a price may cost a call.
  const amountUsd = needs.usd ? await draftUsd(inner, ctx, body, vaultId) : null;
  const destination =
    body.category === 'CONTRACT_CALL'
      ? 'EXTERNAL_ADDRESS'
      : 'destination' in body
        ? DESTINATION_KINDS[body.destination.type]
        : undefined;
  // A sum over the vault's day of transactions: read only for a policy with an outflow cap.
  const outflow =
    needs.outflow && vaultId ? await vaultOutflowWithRuns(inner, db, clock, ctx, vaultId) : null;
  return {
    subOrgId: vault?.subOrgId ?? null,
    category: policyCategoryOf(body.category, 'data' in body ? body.data : undefined),
    ...(asset ? { asset } : {}),
    chain: body.blockChain,
    amountUsd,
    ...(destination ? { destinationKind: destination } : {}),
    initiator,
    outflow24hUsd: outflow,
  };
}

/**
 * What a draft transaction would need if `ctx` sent it now: the rule the
 * create would freeze (a blocking one included, which the create refuses).
 * The create form's review step asks this before anything is sent.
 */
export async function draftRequirement(
  inner: CustodyBackend,
  options: { db: Database; clock: Clock },
  ctx: CustodyContext,
  body: CreateTransactionRequest,
): Promise<FrozenRequirement> {
  const initiator = await policyActor(options.db, ctx);
  const { version, policy } = await currentPolicy(options.db, 'transactions');
  const facts = await draftFacts(
    inner,
    options.db,
    options.clock,
    ctx,
    body,
    initiator,
    factsNeeded(policy),
  );
  return requirementFor(policy, version, facts);
}

/** The vault a ramp's body says pays it (an off-ramp's, a swap's), read before it is made. */
function rampVaultOf(
  body: IntentCreateRequest | RampCreateRequest | SwapCreateRequest,
): string | undefined {
  if ('vaultId' in body) return body.vaultId;
  if ('category' in body) return body.source?.type === 'VAULT' ? body.source.id : undefined;
  const intent = body.intent;
  if (!intent) return undefined;
  if ('input' in intent && intent.input.vaultId) return intent.input.vaultId;
  return intent.source?.type === 'VAULT' ? intent.source.id : undefined;
}

/** A vault's outflow over the 24 hours before now, when a rule needs it and the backend can tell. */
function outflowOf(
  inner: CustodyBackend,
  db: Database,
  clock: Clock,
  ctx: CustodyContext,
  vaultId: string | undefined,
  needs: { outflow: boolean },
): Promise<string | null> | null {
  if (!needs.outflow || !vaultId) return null;
  return vaultOutflowWithRuns(inner, db, clock, ctx, vaultId);
}

/**
 * What a transaction the custody backend made (or would make) gives a rule: a
 * ramp's facts come from the transaction its quote made. Its value is the
 * backend's `amountInUSD`, or priced like a create's. `outflow` is the paying
 * vault's 24 hours read before it was made; it counts only for what leaves
 * that vault, otherwise the outflow is unknown and a cap matches (fail closed).
 */
async function madeFacts(
  inner: CustodyBackend,
  ctx: CustodyContext,
  made: Transaction,
  initiator: PolicyActor,
  needs: { usd: boolean },
  outflow: { vaultId: string | undefined; usd: string | null } | null,
): Promise<ItemFacts> {
  const asset = made.asset ?? undefined;
  let amountUsd = made.amountInUSD ?? null;
  if (amountUsd === null && needs.usd && asset && made.amount && inner.usdValue)
    amountUsd = await inner.usdValue(
      ctx,
      asset,
      made.blockChain ?? '',
      made.amount,
      made.vaultId ?? undefined,
    );
  const destination = made.destination?.type ? DESTINATION_KINDS[made.destination.type] : undefined;
  return {
    subOrgId: made.subOrgId ?? null,
    ...(made.category ? { category: policyCategoryOf(made.category, made.data) } : {}),
    ...(asset ? { asset } : {}),
    ...(made.blockChain ? { chain: made.blockChain } : {}),
    amountUsd,
    ...(destination ? { destinationKind: destination } : {}),
    initiator,
    outflow24hUsd:
      outflow && made.transactionType === 'OUTGOING' && made.vaultId === outflow.vaultId
        ? outflow.usd
        : null,
  };
}

/**
 * What executing a ramp or FX quote would need if `ctx` sent it now: judged
 * on the transaction the quote would make (the backend's preview, checked as
 * the execute checks it), exactly as the execute is judged. The Convert
 * page's review asks this before anything is sent.
 */
export async function draftRampRequirement(
  inner: CustodyBackend,
  options: { db: Database; clock: Clock },
  ctx: CustodyContext,
  body: IntentCreateRequest,
): Promise<FrozenRequirement> {
  const initiator = await policyActor(options.db, ctx);
  const made = await inner.previewRampTransaction(ctx, body);
  const { version, policy } = await currentPolicy(options.db, 'transactions');
  const needs = factsNeeded(policy);
  // The vault the execute would read its outflow for: the one its body names (rampVaultOf).
  const vaultId = rampVaultOf(body);
  const usd = await outflowOf(inner, options.db, options.clock, ctx, vaultId, needs);
  const facts = await madeFacts(inner, ctx, made, initiator, needs, { vaultId, usd });
  return requirementFor(policy, version, facts);
}

/**
 * What a swap's create would need if `ctx` sent it now: judged on the
 * transaction its quote would make (the backend's preview, checked as the
 * create checks it), exactly as the create is judged (`judgedAfter`). The
 * Convert page's review card shows it before anything is sent.
 */
export async function draftSwapRequirement(
  inner: CustodyBackend,
  options: { db: Database; clock: Clock },
  ctx: CustodyContext,
  body: SwapCreateRequest,
): Promise<{ requirement: FrozenRequirement; made: Transaction }> {
  const initiator = await policyActor(options.db, ctx);
  const made = await inner.previewTradeTransaction(ctx, body);
  const { version, policy } = await currentPolicy(options.db, 'transactions');
  const needs = factsNeeded(policy);
  const vaultId = rampVaultOf(body);
  const usd = await outflowOf(inner, options.db, options.clock, ctx, vaultId, needs);
  const facts = await madeFacts(inner, ctx, made, initiator, needs, { vaultId, usd });
  return { requirement: requirementFor(policy, version, facts), made };
}

/** A blocking rule refuses the create, naming the rule; any other is frozen on the item. */
function unlessBlocked(requirement: FrozenRequirement): FrozenRequirement {
  if (requirement.outcome.action === 'BLOCK')
    throw new ApiError(
      403,
      ERROR_CODES.policyBlocked,
      `Refused by the approval policy: rule "${requirement.ruleName}" blocks this`,
    );
  return requirement;
}

/** The intent of an item's approval card now (approvals/card/), read through `backend`; null: none. */
export type CurrentIntent = (
  backend: CustodyBackend,
  ctx: CustodyContext,
  entityId: string,
) => Promise<ApprovalCardIntent | null>;

export function applyPolicies(
  inner: CustodyBackend,
  options: {
    db: Database;
    clock: Clock;
    driver: DatabaseHandle['driver'];
    /**
     * Before a vote is counted, the card is computed again: a member's approval signed on a
     * card it no longer matches stops counting (approvals/signing/), so nothing moves on
     * votes cast on something else. Given by the app (the card reads this module's rules).
     */
    currentIntent?: CurrentIntent;
    /** The approvable kinds (approvals/core/): each says whether its item still waits, and where. */
    kinds: readonly ApprovableKind[];
  },
): CustodyBackend {
  const { db, clock } = options;
  const lockVault = outflowLock(db, options.driver);

  /**
   * Runs `fn` (read the vault's outflow, judge, create) under the vault's
   * outflow lock when a rule caps that outflow: two creates are never judged
   * on the same day's figure (outflow-lock.ts). Without a cap, no lock.
   */
  const underOutflowCap = <T>(
    needs: { outflow: boolean },
    vaultId: string | undefined,
    fn: () => Promise<T>,
  ): Promise<T> => (needs.outflow && vaultId ? lockVault(vaultId, fn) : fn());

  const actorOf = (ctx: CustodyContext) => policyActor(db, ctx);
  /** The active policy's rule for the item, its facts read as that policy needs them; a block refuses. */
  async function judge(
    kind: PolicyKind,
    factsFor: (needs: { usd: boolean; outflow: boolean }) => ItemFacts | Promise<ItemFacts>,
  ): Promise<FrozenRequirement> {
    const { version, policy } = await currentPolicy(db, kind);
    return unlessBlocked(requirementFor(policy, version, await factsFor(factsNeeded(policy))));
  }

  async function freezeOn(
    created: { id?: string | undefined },
    entityType: PolicyEntityType,
    requirement: FrozenRequirement,
    initiator: PolicyActor,
    options: { replace?: boolean } = {},
  ) {
    if (!created.id) return;
    await freezeRequirement(
      db,
      { entityId: created.id, entityType, requirement, initiator },
      clock.now(),
      options,
    );
  }

  /** Bank accounts and contacts answer to the accounts policy: judged by sub-organization and initiator. */
  async function judgeAccount(ctx: CustodyContext, subOrgId: string | null | undefined) {
    const initiator = await actorOf(ctx);
    const requirement = await judge('accounts', () => ({
      subOrgId: subOrgId ?? null,
      amountUsd: null,
      destinationKind: 'BANK_ACCOUNT',
      initiator,
    }));
    return { initiator, requirement };
  }

  /**
   * Whether the item still waits for a decision, and its sub-organization (the scope of the
   * vote's live event): its kind's to say (approvals/core/).
   */
  function stillPending(ctx: CustodyContext, entityType: PolicyEntityType, entityId: string) {
    return kindNamed(options.kinds, entityType).stateOf(
      { backend: inner, ctx, db, clock, memberId: null },
      entityId,
    );
  }

  /**
   * Sends the settled outcome, as the claimant's own decision (the claimant's vote is part of
   * it): the one request that holds the claim, and the only one that ever sends for the item.
   * On a failure the custody API's item says what happened: decided already (this claim's
   * earlier send landed), so the record stands and is marked sent; still waiting after a
   * refusal, so this decision did not stand and is taken back; anything else keeps the item
   * settled for the quorum to send again.
   */
  async function send(
    ctx: CustodyContext,
    approvalId: string,
    request: ApprovalActionRequest,
    claim: { entityId: string; entityType: PolicyEntityType; claimedAt: Date },
    actor: PolicyActor,
    subOrgId: string | null,
  ): Promise<ApprovalActionResponse> {
    const { entityId } = claim;
    try {
      const answer = await inner.decideApproval(ctx, approvalId, request);
      await markSent(db, entityId, clock.now());
      return answer;
    } catch (error) {
      const waits = await stillPending(ctx, claim.entityType, entityId).then(
        (item) => item.pending,
        () => null,
      );
      if (waits === false) await markSent(db, entityId, clock.now());
      else {
        // A timeout or a rate limit says nothing about the decision itself.
        const refused =
          waits === true &&
          error instanceof ApiError &&
          error.status >= 400 &&
          error.status < 500 &&
          error.status !== 408 &&
          error.status !== 429;
        await releaseClaim(
          db,
          entityId,
          claim.claimedAt,
          refused ? { actor, subOrgId, at: clock.now() } : null,
        );
      }
      throw error;
    }
  }

  async function judgedAfter(
    ctx: CustodyContext,
    body: IntentCreateRequest | RampCreateRequest | SwapCreateRequest,
    make: () => Promise<Transaction>,
  ): Promise<Transaction> {
    const initiator = await actorOf(ctx);
    const { version, policy } = await currentPolicy(db, 'transactions');
    const needs = factsNeeded(policy);
    const vaultId = rampVaultOf(body);
    return underOutflowCap(needs, vaultId, async () => {
      // Read before the ramp exists, as a transfer's is: it never counts itself.
      const usd = await outflowOf(inner, db, clock, ctx, vaultId, needs);
      const created = await make();
      const facts = await madeFacts(inner, ctx, created, initiator, needs, { vaultId, usd });
      const requirement = requirementFor(policy, version, facts);
      await freezeOn(created, 'TRANSACTION', requirement, initiator);
      return created;
    });
  }

  /**
   * Before an approval of a PENDING ramp counts, wherever it is decided: an
   * expired quote is priced again, and the decision is held to the quote it
   * names (the backend's rule; 409 QUOTE_CHANGED). Read through the scoped
   * backend first, so an item outside the member's scope is a 404 as ever.
   * `accept` marks the named quote accepted once the vote is kept; `after`
   * does so once a decision the custody backend alone judged succeeded.
   */
  async function bindRamp(
    ctx: CustodyContext,
    entityId: string,
    action: ApprovalActionRequest['action'],
    quoteId: string | undefined,
  ) {
    if (action !== 'approve' || !inner.bindRampApproval) return null;
    const tx = await inner.getTransaction(ctx, entityId).catch(() => null);
    if (!tx || tx.status !== 'PENDING' || !tx.quoteResponse) return null;
    await inner.bindRampApproval(ctx, entityId, quoteId);
    const accept = async () => {
      if (quoteId) await inner.acceptRampQuote?.(ctx, entityId, quoteId);
    };
    return {
      accept,
      after: async (answer: ApprovalActionResponse) => {
        await accept();
        return answer;
      },
    };
  }

  /**
   * A payment run's row, created by the run's executor (its context is one
   * `rowContext` made: no request can carry it): judged already, at submit,
   * as part of the run, and approved with it. It goes through only as the
   * run's approved row, while the run executes, and carries the run's frozen
   * rule and initiator; it is not judged or asked for again on its own.
   */
  async function createRunRow(
    ctx: CustodyContext,
    ref: RunRowRef,
    isThisRow: (row: RowRecord) => boolean,
    make: () => Promise<Transaction>,
  ): Promise<Transaction> {
    const notApproved = (why: string) =>
      new ApiError(403, ERROR_CODES.forbidden, `Not a payment run's approved row: ${why}`);
    // The run and this row only: the executor creates a run's rows one by one.
    const stored = await loadRunRow(db, ref.runId, ref.index);
    if (!stored || stored.run.status !== 'EXECUTING') throw notApproved('the run is not executing');
    const { row } = stored;
    if (!row || !isThisRow(row)) throw notApproved(`row ${ref.index} is not this transaction`);
    const frozen = await requirementOf(db, ref.runId);
    if (frozen?.settled !== 'APPROVED' || frozen.sentAt === null)
      throw notApproved('the run was not approved');
    const created = await make();
    await freezeOn(created, 'TRANSACTION', frozen.requirement, initiatorOf(frozen));
    return created;
  }

  /** A row's externalId from anyone but the run's executor: refused, so none is made ahead of it. */
  function refuseRowExternalId(externalId: string | undefined) {
    if (externalId !== undefined && isRowExternalId(externalId))
      throw new ApiError(
        400,
        ERROR_CODES.validation,
        'externalId of the form run-…-row-N is reserved for the rows of payment runs',
        [{ field: 'externalId', message: 'reserved for the rows of payment runs' }],
      );
  }

  return {
    ...inner,

    async createTransaction(ctx, body) {
      const row = rowOfContext(ctx);
      if (row)
        return createRunRow(
          ctx,
          row,
          (stored) => {
            const expected = rowTransactionBody(stored);
            return expected !== null && canonicalJson(expected) === canonicalJson(body);
          },
          () => inner.createTransaction(ctx, body),
        );
      refuseRowExternalId(body.externalId);
      const initiator = await actorOf(ctx);
      const { version, policy } = await currentPolicy(db, 'transactions');
      const needs = factsNeeded(policy);
      return underOutflowCap(needs, sourceVaultOf(body), async () => {
        const facts = await draftFacts(inner, db, clock, ctx, body, initiator, needs);
        const requirement = unlessBlocked(requirementFor(policy, version, facts));
        const created = await inner.createTransaction(ctx, body);
        await freezeOn(created, 'TRANSACTION', requirement, initiator);
        return created;
      });
    },

    async replaceTransaction(ctx, body) {
      // A replacement moves the same value again: judged like the original, by who asks.
      const initiator = await actorOf(ctx);
      const previous = await requirementOf(db, body.transactionId);
      const created = await inner.replaceTransaction(ctx, body);
      if (previous) await freezeOn(created, 'TRANSACTION', previous.requirement, initiator);
      return created;
    },

    // A ramp's parties and amounts come from its quote: it is judged on the transaction the
    // backend made from it. A blocking rule is frozen on it, so it can only be declined.
    async createTransactionFromIntent(ctx, body) {
      refuseRowExternalId(body.externalId);
      return judgedAfter(ctx, body, () => inner.createTransactionFromIntent(ctx, body));
    },

    // A fiat row of a payment run is paid by an off-ramp its executor makes, on the run's
    // approval (its amount and parties the row's, its quote the one the executor checked).
    async createRampTransaction(ctx, body) {
      const row = rowOfContext(ctx);
      if (row)
        return createRunRow(
          ctx,
          row,
          (stored) => isRowRampBody(stored, body),
          () => inner.createRampTransaction(ctx, body),
        );
      refuseRowExternalId(body.externalId);
      return judgedAfter(ctx, body, () => inner.createRampTransaction(ctx, body));
    },

    // A swap's create names no amount: it is valued from its quote, on the transaction made.
    async createTradeTransaction(ctx, body) {
      refuseRowExternalId(body.externalId);
      return judgedAfter(ctx, body, () => inner.createTradeTransaction(ctx, body));
    },

    async createBankAccount(ctx, input: BankAccountCreateRequest) {
      const { initiator, requirement } = await judgeAccount(ctx, input.subOrgId);
      const created = await inner.createBankAccount(ctx, input);
      await freezeOn(created, 'BANK_ACCOUNT', requirement, initiator);
      return created;
    },

    // A contact is somewhere payments may go, as a bank account is: the same policy decides who
    // approves its proposal and each change to its assets.
    async createContact(ctx, body) {
      const { initiator, requirement } = await judgeAccount(ctx, body.subOrgId);
      const created = await inner.createContact(ctx, body);
      await freezeOn(created, 'CONTACT', requirement, initiator);
      return created;
    },

    async updateContact(ctx, contactId, body) {
      // Judged on the contact's own sub-organization, read in the member's scope (404 outside it).
      const current = await inner.getContact(ctx, contactId);
      const { initiator, requirement } = await judgeAccount(ctx, current.subOrgId);
      const changed = await inner.updateContact(ctx, contactId, body);
      // A change request of its own: the rule frozen on the contact's proposal (decided, or the
      // change would have been refused) gives way to the one judged now, with no decisions yet.
      await freezeOn({ id: contactId }, 'CONTACT', requirement, initiator, { replace: true });
      return changed;
    },

    async decideApproval(ctx, approvalId, sent) {
      const entityId = (await inner.approvalEntityId?.(ctx, approvalId)) ?? null;
      // The quote an approver names is the console's to check, never sent on.
      const { quoteId, ...request } = sent;
      const ramp = entityId ? await bindRamp(ctx, entityId, request.action, quoteId) : null;
      const row = entityId ? await requirementOf(db, entityId) : undefined;
      if (!entityId || !row || passesThrough(row.requirement))
        return ramp
          ? ramp.after(await inner.decideApproval(ctx, approvalId, request))
          : inner.decideApproval(ctx, approvalId, request);

      const { requirement } = row;
      const { outcome } = requirement;
      if (outcome.action === 'BLOCK')
        throw new ApiError(
          403,
          ERROR_CODES.policyBlocked,
          `Rule "${requirement.ruleName}" blocks this`,
        );
      const initiator = initiatorOf(row);
      const actor = await actorOf(ctx);
      // The rule's verdict is the only one: a decision it does not count never reaches the
      // custody backend, whose own rules (an API user approving what it created) are looser.
      refuseUnlessEligible(requirement, initiator, actor);
      const decision = request.action === 'approve' ? 'APPROVE' : 'DECLINE';

      // Through the scoped backend: an item outside the member's scope is a 404 before any
      // vote is kept. One no longer pending is decided: nothing of this request's is sent.
      const item = await stillPending(ctx, row.entityType, entityId);
      if (!item.pending) throw decidedAlready(row.entityType, entityId, requirement.ruleName);
      const { subOrgId } = item;

      // An API client's signature is the custody backend's to check: its vote counts only
      // once sent, so it may add only the approval that settles the item (or decline).
      // The vote counts toward the quote it names: from here it is the accepted one.
      if (ramp && decision === 'APPROVE') await ramp.accept();
      // The card as it is now, after any re-quote: what the quorum's votes must still hold.
      const current = (await options.currentIntent?.(inner, ctx, entityId)) ?? null;
      const result = await recordVote(
        db,
        entityId,
        { actor, decision, reason: request.reason, subOrgId },
        clock.now(),
        { onlyIfSettles: actor.kind === 'api_client', ...(current ? { current } : {}) },
      );
      if (result.wouldNotSettle)
        throw new ApiError(
          403,
          ERROR_CODES.policyNeedsMoreApprovals,
          `Rule "${requirement.ruleName}" needs ${outcome.approvals} approvals: members add them in the console, and an API client only the last`,
        );
      if (result.earlier)
        throw decisionRecorded(requirement.ruleName, result.tally, result.earlier);
      const progress = progressOf(requirement, result.tally);
      if (result.claimedAt) {
        const settled = result.tally.state === 'APPROVED' ? 'approve' : 'reject';
        const answer = await send(
          ctx,
          approvalId,
          { ...request, action: settled },
          { entityId, entityType: row.entityType, claimedAt: result.claimedAt },
          actor,
          subOrgId,
        );
        return { ...answer, policy: progress };
      }
      if (result.tally.state === 'PENDING')
        return { success: true, status: 'PENDING', id: approvalId, entityId, policy: progress };
      // Settled by the others' decisions, sent or being sent by the request that settled it:
      // this decision came after and is neither recorded nor sent.
      throw decidedAlready(row.entityType, entityId, requirement.ruleName);
    },
  };
}
