import { cmp } from '#contract/decimal.ts';
import type { PreApprovalCap, SchedulePreApproval } from '#contract/payment-run-schedules.ts';
import type { PaymentRowInput } from '#contract/payment-runs.ts';
import type { FrozenRequirement, Policy } from '#contract/policies.ts';
import { canonicalJson } from '#contract/approval-card.ts';
import type { CustodyContext } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';
import { rowsDigest } from '../store.ts';

/**
 * Puts a schedule's cap up for approval (the approval kind's, wired in by
 * the console's routes): `prepare` refuses a cap the transactions policy
 * does not allow (a 4xx naming `preApproval.maxTotalUsd`) before anything is
 * written, and answers what to write with the schedule, in its transaction.
 */
export interface PreApprovalProposer {
  prepare(
    ctx: CustodyContext,
    subOrgId: string | null,
    cap: PreApprovalCap,
  ): Promise<(tx: Database, pre: SchedulePreApproval) => Promise<void>>;
}

/**
 * A schedule's pre-approval: the cap its approvers sign (the most an
 * occurrence may pay in USD, the assets and destinations of its rows, the
 * rows' digest) and the one rule that says whether an occurrence is paid on
 * it or held for a vote of its own. Pure: the scheduler reads what it needs.
 */

/** A row's asset as the cap states it: `USDC on ETHEREUM`. */
const assetOf = (row: PaymentRowInput) => `${row.asset} on ${row.blockChain}`;

/** A row's destination as the cap states it: the contact, the address on its chain, the bank account. */
function destinationOf(row: PaymentRowInput): string {
  if (row.kind === 'FIAT') return `bank account ${row.bankAccountId ?? ''}`;
  if (row.contactId) return `contact ${row.contactId}`;
  return `address ${row.address ?? ''} on ${row.blockChain}`;
}

/** The cap as proposed for `rows`: what the approvers will see and sign, waiting for them. */
export function proposedPreApproval(
  approvalId: string,
  cap: PreApprovalCap,
  rows: readonly PaymentRowInput[],
): SchedulePreApproval {
  return {
    approvalId,
    status: 'PENDING',
    maxTotalUsd: cap.maxTotalUsd,
    assets: [...new Set(rows.map(assetOf))],
    destinations: [...new Set(rows.map(destinationOf))],
    rowsDigest: rowsDigest(rows),
    approvedAt: null,
    approvedBy: [],
  };
}

/**
 * Why the transactions policy refuses a schedule this cap (null: it allows
 * it): pre-approval is off unless the policy says so, and never above the
 * policy's own ceiling.
 */
export function policyRefusal(policy: Policy, maxTotalUsd: string): string | null {
  const allowed = policy.schedulePreApproval;
  if (!allowed)
    return 'the transactions policy does not allow pre-approved schedules: each occurrence is approved like a new run';
  if (cmp(maxTotalUsd, allowed.maxOccurrenceUsd) > 0)
    return `the transactions policy allows pre-approval up to ${allowed.maxOccurrenceUsd} USD per occurrence`;
  return null;
}

/** What an occurrence is, as its pre-approval is judged. */
export interface Occurrence {
  rows: readonly PaymentRowInput[];
  /** Its total in USD as checked when it fell due; null when an asset has no price. */
  totalUsd: string | null;
  /** The rule the transactions policy judged it under. */
  requirement: FrozenRequirement;
}

/**
 * Why the occurrence is held for a vote of its own, or null when the
 * schedule's approval pays it: the approval must stand, the policy still
 * allow the cap, the rows be the ones approved (each destination and asset in
 * the approved set), the total known and within the cap, and the occurrence
 * fall under the rule the schedule was approved under, needing no more.
 */
export function heldBecause(
  pre: SchedulePreApproval | null,
  scheduleRule: FrozenRequirement | null,
  policy: Policy,
  occurrence: Occurrence,
): string | null {
  if (!pre) return 'the schedule is not pre-approved';
  if (pre.status !== 'APPROVED' || !scheduleRule)
    return `the schedule's pre-approval is ${pre.status === 'DECLINED' ? 'declined' : 'not yet approved'}`;
  const refused = policyRefusal(policy, pre.maxTotalUsd);
  if (refused) return refused;
  const destinations = new Set(pre.destinations);
  const assets = new Set(pre.assets);
  const outside = occurrence.rows.findIndex(
    (row) => !destinations.has(destinationOf(row)) || !assets.has(assetOf(row)),
  );
  if (outside >= 0) {
    const row = occurrence.rows[outside]!;
    return !destinations.has(destinationOf(row))
      ? `row ${outside + 1} pays ${destinationOf(row)}, not a destination the schedule was approved for`
      : `row ${outside + 1} pays ${assetOf(row)}, not an asset the schedule was approved for`;
  }
  if (rowsDigest(occurrence.rows) !== pre.rowsDigest)
    return 'its rows are not the ones the schedule was approved with';
  if (occurrence.totalUsd === null)
    return 'its total has no USD value, so it cannot be held to the cap';
  if (cmp(occurrence.totalUsd, pre.maxTotalUsd) > 0)
    return `its total of ${occurrence.totalUsd} USD is over the approved cap of ${pre.maxTotalUsd} USD`;
  const rule = occurrence.requirement;
  if (
    rule.outcome.action !== 'ALLOW' ||
    rule.ruleId !== scheduleRule.ruleId ||
    canonicalJson(rule.outcome) !== canonicalJson(scheduleRule.outcome)
  )
    return `it falls under the rule “${rule.ruleName}”, not the one the schedule was approved under (“${scheduleRule.ruleName}”)`;
  return null;
}
