import type {
  ApprovalCardIntent,
  CardDestination,
  CardQuorum,
  CardRule,
  CardVault,
} from '#contract/approval-card.ts';
import { waitingFor } from '#contract/approval-progress.ts';
import { ApiError } from '#contract/api-error.ts';
import { add, isDecimalString } from '#contract/decimal.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import { approvalProgress, requirementsOf, summaryOf } from '../../policies/progress.ts';
import { voidedVotes } from '../signing/signatures.store.ts';
import type { CardContext } from '../core/kind.ts';

/** Shared pieces of every kind's card: names, the rule and the quorum. */

/** A read that answers 404 (unknown, or outside the member's scope) is null; anything else throws. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * An amount as the decimal module writes it ("0.50" and "0.5" alike read
 * "0.5"): a draft's typed amount and the created item's stored one give one
 * intent. Text that is no decimal is kept as it is, so nothing is hidden.
 */
export function canonicalAmount(amount: string | null | undefined): string | null {
  if (amount === undefined || amount === null || amount === '') return null;
  return isDecimalString(amount) ? add(amount, '0') : amount;
}

/** One of our vaults by id, named when the member may see it. */
export async function vaultOf(card: CardContext, vaultId: string): Promise<CardVault> {
  const vault = await orNull(card.backend.getVault(card.ctx, vaultId));
  return { id: vaultId, name: vault?.vaultName ?? null };
}

/** The rule's name, its outcome in one line, and the policy version it came from. */
export async function ruleOf(
  card: CardContext,
  requirement: FrozenRequirement | null,
): Promise<CardRule | null> {
  if (!requirement) return null;
  return {
    name: requirement.ruleName,
    summary: await summaryOf(card.db, requirement),
    policyVersion: requirement.policyVersion,
  };
}

/**
 * The item's frozen requirement and where its quorum stands; nulls when none was frozen on it.
 * `held`: the console holds the item's kind itself, so only members decide it (no API client).
 */
export async function frozenOf(
  card: CardContext,
  entityId: string,
  subOrgId: string | null | undefined,
  held: boolean,
): Promise<{ requirement: FrozenRequirement | null; quorum: CardQuorum | null }> {
  const [row] = await requirementsOf(card.db, [entityId]);
  if (!row) return { requirement: null, quorum: null };
  const [progress] = await approvalProgress(card.db, [{ row, subOrgId, held }], card.memberId);
  // Approvals made on an earlier card that stopped counting, and why (signing/).
  const voided = progress ? await voidedVotes(card.db, entityId) : [];
  return {
    requirement: row.requirement,
    quorum: progress
      ? {
          required: progress.required,
          blocked: progress.blocked,
          approvedBy: progress.approvals.map((a) => ({ name: a.name ?? a.id, at: a.at })),
          waitingOn: waitingFor(progress),
          ...(voided.length ? { voided } : {}),
        }
      : null,
  };
}

/** Last 4 digits (or characters) of an account number; never more. */
export function last4(accountNumber: string | null | undefined): string | null {
  if (!accountNumber) return null;
  const plain = accountNumber.replace(/[^0-9A-Za-z]/g, '');
  return plain.length >= 4 ? plain.slice(-4) : null;
}

/**
 * The facts of money an intent that moves none leaves empty (a bank account,
 * a payment run, whose totals are its own, a change to the console itself):
 * each present and null, as every intent's fields are.
 */
export const MOVES_NO_MONEY = {
  asset: null,
  blockChain: null,
  amount: null,
  assets: null,
  feeCeiling: null,
  call: null,
  quote: null,
} as const satisfies Partial<ApprovalCardIntent>;

/** A destination that is no address, bank or contact: a member, a policy. */
export function namedDestination(
  type: string,
  id: string | null,
  name: string | null,
  ours: boolean,
): CardDestination {
  return {
    type,
    id,
    name,
    address: null,
    blockChain: null,
    rail: null,
    last4: null,
    ours,
    approvedContact: false,
    approvedContactSince: null,
  };
}
