import { add, cmp } from '#contract/decimal.ts';
import {
  categoryCovers,
  type ActorKind,
  type AllowOutcome,
  type DestinationKind,
  type FrozenRequirement,
  type Policy,
  type PolicyMatch,
  type PolicyRule,
} from '#contract/policies.ts';

/**
 * The policy engine's pure half: which rule an item falls under, and whether
 * the decisions collected so far approve it. No storage and no clock; the
 * callers (creation and decision) freeze the result and record decisions
 * under a lock, so that two approvers at the same instant are counted once
 * each (ARCHITECTURE.md, "Approval policies").
 */

/** Someone who starts or decides an item. */
export interface PolicyActor {
  kind: 'staff' | 'api_client';
  id: string;
  /** A member's role; API clients have none. */
  role?: 'viewer' | 'initiator' | 'approver' | 'admin';
  /**
   * A member's sub-organizations (null: all) and who created their account,
   * as read when they decide; absent on a decision already recorded, which
   * was held to them when it was cast.
   */
  subOrgIds?: string[] | null;
  createdBy?: string | null;
}

/** What a rule can look at, read when the item is created. */
export interface ItemFacts {
  subOrgId: string | null;
  /** Transactions only; a bank account or contact has none, and no category rule matches it. */
  category?: string;
  asset?: string;
  chain?: string;
  /** The value in USD; null when it cannot be priced (threshold rules then match: fail closed). */
  amountUsd: string | null;
  destinationKind?: DestinationKind;
  initiator: PolicyActor;
  /**
   * The source vault's outflow over the last 24 h, in USD, before this item;
   * null or absent when it cannot be told (outflow caps then match: fail closed).
   */
  outflow24hUsd?: string | null;
}

export function actorKind(actor: PolicyActor): ActorKind {
  return actor.kind === 'api_client' ? 'api_client' : (actor.role ?? 'viewer');
}

function listed<T extends string>(list: readonly T[] | undefined, value: T | undefined): boolean {
  return list === undefined || (value !== undefined && list.includes(value));
}

/** True when every condition the rule gives holds for the item. */
export function matches(match: PolicyMatch, facts: ItemFacts): boolean {
  if (match.subOrgIds && (facts.subOrgId === null || !match.subOrgIds.includes(facts.subOrgId)))
    return false;
  // A category as a person means it: a rule on TRANSFER also covers the API's TOKEN_TRANSFER.
  const { category } = facts;
  if (match.categories && !(category && match.categories.some((c) => categoryCovers(c, category))))
    return false;
  if (!listed(match.assets, facts.asset)) return false;
  if (!listed(match.chains, facts.chain)) return false;
  if (!listed(match.destinationKinds, facts.destinationKind)) return false;
  if (!listed(match.initiatorKinds, actorKind(facts.initiator))) return false;
  if (match.amountUsdAtLeast !== undefined && facts.amountUsd !== null) {
    if (cmp(facts.amountUsd, match.amountUsdAtLeast) < 0) return false;
  }
  if (match.outflow24hUsdAbove !== undefined && facts.amountUsd !== null && facts.outflow24hUsd) {
    const after = add(facts.outflow24hUsd, facts.amountUsd);
    if (cmp(after, match.outflow24hUsdAbove) <= 0) return false;
  }
  return true;
}

/**
 * Which figures the policy's rules look at: a USD value (a threshold or an
 * outflow cap) and the vault's 24-hour outflow (a cap). A policy with neither
 * needs no price and no outflow read at creation.
 */
export function factsNeeded(policy: Policy): { usd: boolean; outflow: boolean } {
  const outflow = policy.rules.some((rule) => rule.match.outflow24hUsdAbove !== undefined);
  const usd = outflow || policy.rules.some((rule) => rule.match.amountUsdAtLeast !== undefined);
  return { usd, outflow };
}

/** The first rule that matches, or null for the fallback. */
export function ruleFor(policy: Policy, facts: ItemFacts): PolicyRule | null {
  return policy.rules.find((rule) => matches(rule.match, facts)) ?? null;
}

/** What the item needs, to be kept with it from its creation on. */
export function requirementFor(
  policy: Policy,
  version: number,
  facts: ItemFacts,
): FrozenRequirement {
  const rule = ruleFor(policy, facts);
  return rule
    ? { policyVersion: version, ruleId: rule.id, ruleName: rule.name, outcome: rule.outcome }
    : {
        policyVersion: version,
        ruleId: null,
        ruleName: 'Default',
        outcome: policy.fallback,
      };
}

/** Whether `actor` counts towards `outcome` for an item `initiator` started. */
export function isEligible(
  outcome: AllowOutcome,
  initiator: PolicyActor,
  actor: PolicyActor,
): boolean {
  const own = actor.kind === initiator.kind && actor.id === initiator.id;
  if (own && !(actor.kind === 'api_client' && outcome.apiClientMayApproveOwn)) return false;
  const kind = actorKind(actor);
  const { kinds, memberIds } = outcome.approvers;
  if (kinds.length === 0 && memberIds.length === 0)
    return kind === 'approver' || kind === 'admin' || kind === 'api_client';
  if (actor.kind === 'staff' && memberIds.includes(actor.id)) return true;
  return (kinds as readonly string[]).includes(kind);
}

/** Why a decision does not count toward a requirement (`notCounted`). */
export type NotCounted =
  | { why: 'BLOCKED' }
  | { why: 'OWN' }
  | { why: 'EXCLUDED' }
  | { why: 'LINKED'; to: { id: string; name: string }; createdByThem: boolean }
  | { why: 'OUTSIDE_SCOPE' }
  | { why: 'NOT_ELIGIBLE' };

/** Every sub-organization of `scope` (null: all) is among `held` (null: all). */
function holds(held: readonly string[] | null, scope: readonly string[] | null): boolean {
  if (!held) return true;
  if (!scope) return false;
  return scope.every((id) => held.includes(id));
}

/**
 * Why `actor`'s decision does not count toward the requirement on an item
 * `initiator` started, or null when it does: the outcome's own rule
 * (`isEligible`), then the kind's limits the requirement carries (members
 * excluded, accounts linked to the proposer or an editor, a decider's scope).
 * The one verdict for every kind: the decision's refusal, the tally and the
 * members still eligible all read it.
 */
export function notCounted(
  requirement: FrozenRequirement,
  initiator: PolicyActor,
  actor: PolicyActor,
): NotCounted | null {
  const { outcome } = requirement;
  if (outcome.action === 'BLOCK') return { why: 'BLOCKED' };
  const own = actor.kind === initiator.kind && actor.id === initiator.id;
  if (own && !(actor.kind === 'api_client' && outcome.apiClientMayApproveOwn))
    return { why: 'OWN' };
  if (actor.kind === 'staff') {
    if (requirement.excluded?.includes(actor.id)) return { why: 'EXCLUDED' };
    for (const member of requirement.unlinkedFrom ?? []) {
      if (member.id === actor.id) return { why: 'EXCLUDED' };
      const createdByThem = actor.createdBy != null && actor.createdBy === member.id;
      if (createdByThem || member.createdBy === actor.id)
        return { why: 'LINKED', to: { id: member.id, name: member.name }, createdByThem };
    }
    const scope = requirement.deciderAdministers;
    if (scope && actor.subOrgIds !== undefined && !holds(actor.subOrgIds, scope.subOrgIds))
      return { why: 'OUTSIDE_SCOPE' };
  }
  return isEligible(outcome, initiator, actor) ? null : { why: 'NOT_ELIGIBLE' };
}

export interface RecordedDecision {
  actor: PolicyActor;
  decision: 'APPROVE' | 'DECLINE';
}

export interface Tally {
  state: 'PENDING' | 'APPROVED' | 'DECLINED';
  /** Distinct eligible approvers, in the order they approved. */
  approvedBy: PolicyActor[];
  /** The eligible decline that ended it, if one did. */
  declinedBy: PolicyActor | null;
  required: number;
}

const key = (actor: PolicyActor) => `${actor.kind}:${actor.id}`;

/**
 * Where an item stands after these decisions, in the order they were
 * recorded: approved once enough distinct eligible approvers approve,
 * declined by the first eligible decline. Decisions by the ineligible, a
 * second decision by the same approver, and anything after the item was
 * settled count for nothing. A blocked item is never approved.
 */
export function tally(
  requirement: FrozenRequirement,
  initiator: PolicyActor,
  decisions: readonly RecordedDecision[],
): Tally {
  const { outcome } = requirement;
  if (outcome.action === 'BLOCK')
    return { state: 'DECLINED', approvedBy: [], declinedBy: null, required: 0 };
  const approvedBy: PolicyActor[] = [];
  const decided = new Set<string>();
  for (const { actor, decision } of decisions) {
    if (notCounted(requirement, initiator, actor) || decided.has(key(actor))) continue;
    decided.add(key(actor));
    if (decision === 'DECLINE')
      return { state: 'DECLINED', approvedBy, declinedBy: actor, required: outcome.approvals };
    approvedBy.push(actor);
    if (approvedBy.length >= outcome.approvals)
      return { state: 'APPROVED', approvedBy, declinedBy: null, required: outcome.approvals };
  }
  return { state: 'PENDING', approvedBy, declinedBy: null, required: outcome.approvals };
}

/**
 * Whether `vote`, arriving on an item `counted` has settled, may send its
 * outcome again (after a send that failed): only a member of the quorum that
 * settled it (an approver it counted, or the decline that ended it)
 * repeating the decision they recorded. Anyone else's decision on a settled
 * item counts for nothing, so it can never be what is sent.
 */
export function mayResendSettled(
  counted: Tally,
  decisions: readonly RecordedDecision[],
  vote: RecordedDecision,
): boolean {
  const same = (a: PolicyActor) => a.kind === vote.actor.kind && a.id === vote.actor.id;
  const deciders =
    counted.state === 'DECLINED' && counted.declinedBy ? [counted.declinedBy] : counted.approvedBy;
  return deciders.some(same) && decisions.find((d) => same(d.actor))?.decision === vote.decision;
}
