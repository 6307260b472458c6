import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, mul } from '#contract/decimal.ts';
import { describePreApproval, type RunPreApproval } from '#contract/payment-runs.ts';
import type { FrozenRequirement, Policy } from '#contract/policies.ts';
import { recordAudit } from '../../../auth/audit.store.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';
import { requirementFor, type ItemFacts, type PolicyActor } from '../../policies/evaluate.ts';
import { policyActor, vaultOutflowWithRuns } from '../../policies/guard.ts';
import type { outflowLocks } from '../../policies/outflow-lock.ts';
import { activePolicy } from '../../policies/policies.store.ts';
import { freezeRequirement, settleApprovedBefore } from '../../policies/votes.store.ts';
import { describeRows } from '../../payment-runs/check.ts';
import {
  markPreApproved,
  paidReferences,
  PAYMENT_REFERENCES_LOCK,
  submitRun,
  type StoredRun,
} from '../../payment-runs/store.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import { proposeHeld } from '../core/propose.ts';
import { PAYMENT_RUN, paymentRunKind } from './kind.ts';

/**
 * Whether a schedule's occurrence is approved by its schedule's pre-approval
 * instead of a vote: asked inside the submit's transaction, with the rule the
 * run fell under and the policy in force; answers what approved it, or null
 * to put it in the inbox like any run.
 */
export type PreApprovalOf = (
  tx: Database,
  judged: { requirement: FrozenRequirement; policy: Policy },
) => Promise<RunPreApproval | null>;

/**
 * A checked run proposed for approval as one item, on behalf of `ctx`'s
 * actor (the member who submits it, or a schedule's creator for an
 * occurrence): the transactions policy judges every row (a rule that blocks
 * any row blocks the run) and the run as a whole at its total USD value, with
 * the 24-hour outflow of its source vaults before it, so a run of 400 × $900
 * is judged as the $360,000 outflow it is. The run's rule is frozen on it; no
 * API client may approve a run, its own or another's.
 *
 * The outflow is read, the run judged and its rows' values written (from then
 * on they count in their vaults' outflow until each is sent) under the
 * outflow locks of all its vaults: no transfer or other run is judged on the
 * day's figure without it.
 */
export async function submitForApproval(
  deps: {
    db: Database;
    clock: Clock;
    backend: CustodyBackend;
    lockVaults: ReturnType<typeof outflowLocks>;
  },
  ctx: CustodyContext,
  stored: StoredRun,
  preApprovalOf?: PreApprovalOf,
): Promise<RunPreApproval | null> {
  const { db, clock, backend, lockVaults } = deps;
  const { run, rows } = stored;
  if (run.status !== 'CHECKED' || run.errors.length > 0 || !run.simulation)
    throw new ApiError(
      409,
      ERROR_CODES.conflict,
      `The run is ${run.status}${run.errors.length ? ` with ${run.errors.length} check errors` : ''}: only a checked run without errors is submitted`,
    );
  const initiator = await policyActor(db, ctx);
  // Whoever made the run or changed its rows as a draft wrote what it pays: when another member
  // submits it, they never count among its approvers either (the submitter is excluded as its
  // initiator).
  const writers = [run.createdById, ...run.editorIds];
  const judge = await runJudge({ db, clock, backend }, ctx, run, rows);
  const vaultIds = [...new Set(rows.map((r) => r.sourceVaultId))];
  // With the organization's references key too: two runs from different vaults paying the same
  // reference, submitted at once, are checked one after the other, so the second sees the first.
  return lockVaults([PAYMENT_REFERENCES_LOCK, ...vaultIds], async () => {
    // Checked before another run took a reference (the same file made twice, both checked,
    // the other submitted first): refused, rather than paid twice.
    const taken = await paidReferences(
      db,
      run.id,
      rows.map((r) => r.reference),
    );
    const twice = rows.filter((r) => taken.has(r.reference)).map((r) => r.index);
    if (twice.length > 0)
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `${describeRows(twice)}: another run has paid, or is paying, the same reference since the run was checked; check it again`,
      );
    const { policy, requirement, usdByRow } = await judge(
      run.simulation?.totalUsd ?? null,
      initiator,
      writers,
    );
    // Waiting and its rule frozen stand or fall together: a run waiting without a rule would be
    // in no one's inbox, and could never be decided.
    return db.transaction(async (tx) => {
      const now = clock.now();
      if (!(await submitRun(tx, now, run.id, usdByRow)))
        throw new ApiError(409, ERROR_CODES.conflict, 'The run changed while it was submitted');
      const pre = preApprovalOf ? await preApprovalOf(tx, { requirement, policy }) : null;
      if (!pre) {
        await proposeHeld(tx, clock, {
          kind: paymentRunKind,
          entityId: run.id,
          subOrgId: run.subOrgId,
          requirement,
          initiator,
        });
        return null;
      }
      // Approved by the schedule's approval: its rule is kept with it, settled without a vote
      // (it waits in no inbox), and the run moves on to the executor in this same transaction.
      await freezeRequirement(
        tx,
        { entityId: run.id, entityType: PAYMENT_RUN, requirement, initiator },
        now,
      );
      await settleApprovedBefore(tx, run.id, now);
      if (!(await markPreApproved(tx, now, run.id, pre)))
        throw new ApiError(409, ERROR_CODES.conflict, 'The run changed while it was submitted');
      await recordAudit(tx, {
        at: now,
        actorType: 'SYSTEM',
        actorId: null,
        actorName: 'Payment run scheduler',
        action: 'payment_run.pre_approved',
        entityType: PAYMENT_RUN,
        entityId: run.id,
        summary: describePreApproval(pre),
        outcome: 'success',
        requestId: ctx.requestId ?? null,
      });
      await raiseApprovalEvent(
        tx,
        {
          kind: 'DECIDED',
          entityType: PAYMENT_RUN,
          entityId: run.id,
          subOrgId: run.subOrgId,
          status: 'APPROVED',
        },
        now,
      );
      return pre;
    });
  });
}

/** A row as the policy judges it: what it pays, from where, to which kind of destination. */
interface JudgedRow {
  index: number;
  kind: 'CRYPTO' | 'FIAT';
  sourceVaultId: string;
  contactId?: string | null | undefined;
  asset: string;
  blockChain: string;
  amount: string;
}

/**
 * How the transactions policy judges a run's rows: their prices read first (outside any
 * lock), then, called under the outflow locks of the rows' vaults, every row and the run as a
 * whole at `totalUsd` with those vaults' 24-hour outflow before it (other runs committed from
 * them counted, this one not). A rule that blocks any row, or the whole, is a 403 naming it.
 * Answers the run's rule (never approved by an API client; none of `writers` counts) and
 * each row's USD value, what its vault's outflow counts until it is sent.
 */
export async function runJudge(
  deps: { db: Database; clock: Clock; backend: CustodyBackend },
  ctx: CustodyContext,
  run: { id: string; subOrgId: string | null },
  rows: readonly JudgedRow[],
): Promise<
  (
    totalUsd: string | null,
    initiator: PolicyActor,
    writers: readonly string[],
  ) => Promise<{
    policy: Policy;
    requirement: FrozenRequirement;
    usdByRow: Map<number, string | null>;
  }>
> {
  const { db, clock, backend } = deps;
  // One price per asset and chain, read once: each row's value is its amount at that price.
  const prices = new Map<string, string | null>();
  for (const row of rows) {
    const key = `${row.asset}:${row.blockChain}`;
    if (prices.has(key)) continue;
    prices.set(
      key,
      backend.usdValue
        ? await backend.usdValue(ctx, row.asset, row.blockChain, '1', row.sourceVaultId)
        : null,
    );
  }
  const vaultIds = [...new Set(rows.map((r) => r.sourceVaultId))];
  return async (totalUsd, initiator, writers) => {
    const { policy, version } = await activePolicy(db, 'transactions');
    // Each vault's day so far and the other runs committed from it; any unknown: unknown
    // for the run, and an outflow cap then applies (fail closed).
    const outflows = await Promise.all(
      vaultIds.map((id) => vaultOutflowWithRuns(backend, db, clock, ctx, id, run.id)),
    );
    const outflow = outflows.some((o) => o === null)
      ? null
      : outflows.reduce<string>((a, b) => add(a, b ?? '0'), '0');
    const base = { subOrgId: run.subOrgId, category: 'TRANSFER', initiator } as const;
    const judged: {
      row: number | null;
      usd: string | null;
      requirement: FrozenRequirement;
    }[] = rows.map((row) => {
      const price = prices.get(`${row.asset}:${row.blockChain}`) ?? null;
      const usd = price === null ? null : mul(row.amount, price);
      const facts: ItemFacts = {
        ...base,
        asset: row.asset,
        chain: row.blockChain,
        amountUsd: usd,
        destinationKind:
          row.kind === 'FIAT'
            ? 'BANK_ACCOUNT'
            : row.contactId !== null && row.contactId !== undefined
              ? 'CONTACT'
              : 'EXTERNAL_ADDRESS',
        outflow24hUsd: outflow,
      };
      return { row: row.index, usd, requirement: requirementFor(policy, version, facts) };
    });
    const total = requirementFor(policy, version, {
      ...base,
      amountUsd: totalUsd,
      outflow24hUsd: outflow,
    });
    judged.push({ row: null, usd: totalUsd, requirement: total });
    const blocked = judged.find((j) => j.requirement.outcome.action === 'BLOCK');
    if (blocked)
      throw new ApiError(
        403,
        ERROR_CODES.forbidden,
        blocked.row === null
          ? `The rule "${blocked.requirement.ruleName}" blocks the run as a whole`
          : `The rule "${blocked.requirement.ruleName}" blocks row ${blocked.row}`,
      );
    // The run's rule, judged at its total; never approved by an API client, whoever made it.
    const ruled: FrozenRequirement =
      total.outcome.action === 'ALLOW'
        ? { ...total, outcome: { ...total.outcome, apiClientMayApproveOwn: false } }
        : total;
    const excluded = [...new Set(writers)].filter(
      (id) => !(initiator.kind === 'staff' && initiator.id === id),
    );
    const requirement = excluded.length > 0 ? { ...ruled, excluded } : ruled;
    const usdByRow = new Map(
      judged.flatMap((j) => (j.row === null ? [] : ([[j.row, j.usd]] as const))),
    );
    return { policy, requirement, usdByRow };
  };
}
