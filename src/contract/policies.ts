import * as z from 'zod/mini';
import { SignedIntent } from './approval-signature.ts';
import { IsoTimestamp } from './common.ts';
import { PositiveDecimal } from './decimal-checks.ts';
import { formatUsd } from './decimal-format.ts';
import { displayTextProblem } from './display-text.ts';
import { PolicyKind } from './policy-kind.ts';
import { TRANSACTION_CATEGORIES } from './enums.ts';

/**
 * Approval policies: who must approve what. A policy is an ordered list of
 * rules, the first that matches an item deciding it, and a fallback for
 * everything no rule matches. The console holds the policy and applies it the
 * same way whichever custody backend it speaks to (ARCHITECTURE.md,
 * "Approval policies"). One schema serves as the editor's body and the
 * answer, so every field is required on the wire but the match's conditions.
 */

/** Where a transaction's value goes, as a rule can name it. */
export const DESTINATION_KINDS = ['VAULT', 'CONTACT', 'EXTERNAL_ADDRESS', 'BANK_ACCOUNT'] as const;
export const DestinationKind = z.enum(DESTINATION_KINDS);
export type DestinationKind = z.infer<typeof DestinationKind>;

/**
 * Who may start or decide an item, as a rule names them: a member's role, or
 * an API client (a program holding an API key, as the provider's SDKs do).
 */
export const ACTOR_KINDS = ['viewer', 'initiator', 'approver', 'admin', 'api_client'] as const;
export const ActorKind = z.enum(ACTOR_KINDS);
export type ActorKind = z.infer<typeof ActorKind>;

/** The roles that may decide at all: a rule's approvers are drawn from these. */
export const DECIDING_KINDS = ['approver', 'admin', 'api_client'] as const;
export const DecidingKind = z.enum(DECIDING_KINDS);
export type DecidingKind = z.infer<typeof DecidingKind>;

/**
 * The categories a policy judges by: the custody API's, and RAW_SIGNING, a
 * contract call whose `data` is `{messageHex}`. What a raw signature commits
 * the vault to cannot be read from its bytes, so a rule on contract calls does
 * not decide it: it has a rule of its own, or the policy's default (which
 * always needs an approval).
 */
export const POLICY_CATEGORIES = [...TRANSACTION_CATEGORIES, 'RAW_SIGNING'] as const;
export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];

/** The category a policy judges an item by: its own, or RAW_SIGNING for a contract call that signs a raw message. */
export function policyCategoryOf(
  category: string,
  data: Record<string, unknown> | null | undefined,
): string {
  return category === 'CONTRACT_CALL' && data && typeof data['messageHex'] === 'string'
    ? 'RAW_SIGNING'
    : category;
}

/**
 * The categories a rule names, as a person reads them on transactions, each
 * covering the custody API's categories that mean the same to that person:
 * the console creates a USDC transfer as TRANSFER, but the custody API may
 * label one it made TOKEN_TRANSFER, and a token approval is a contract call
 * (docs/policies.md, "Categories are the ones a person sees"). The editor offers these only.
 */
export const RULE_CATEGORIES = [
  {
    value: 'TRANSFER',
    label: 'Transfer',
    covers: ['TRANSFER', 'TOKEN_TRANSFER'],
    description: 'Covers transfers and token transfers.',
  },
  {
    value: 'OFF_RAMP',
    label: 'Off-ramp',
    covers: ['OFF_RAMP'],
    description: 'Covers off-ramps: a digital asset sold to a bank account.',
  },
  {
    value: 'ON_RAMP',
    label: 'On-ramp',
    covers: ['ON_RAMP'],
    description: 'Covers on-ramps: money from a bank bought into a vault.',
  },
  {
    value: 'RAMP',
    label: 'Ramp',
    covers: ['RAMP'],
    description: 'Covers FX: one currency to another, paid to a bank account.',
  },
  {
    value: 'SWAP',
    label: 'Swap',
    covers: ['SWAP'],
    description: 'Covers market and limit trades.',
  },
  {
    value: 'CONTRACT_CALL',
    label: 'Contract call',
    covers: ['CONTRACT_CALL', 'TOKEN_APPROVAL', 'REVOKE_TOKEN_ALLOWANCE'],
    description: 'Covers contract calls, token approvals and revoked allowances.',
  },
  {
    value: 'RAW_SIGNING',
    label: 'Raw signing',
    covers: ['RAW_SIGNING'],
    description: 'Covers raw signatures of a message: what they commit to cannot be read.',
  },
  {
    value: 'STAKE',
    label: 'Stake',
    covers: ['STAKE'],
    description: 'Covers staking, unstaking and claimed rewards.',
  },
  {
    value: 'DELEGATE_RESOURCE',
    label: 'Delegate resource',
    covers: ['DELEGATE_RESOURCE'],
    description: 'Covers TRON energy and bandwidth delegated.',
  },
] as const satisfies ReadonlyArray<{
  value: PolicyCategory;
  label: string;
  covers: readonly PolicyCategory[];
  description: string;
}>;

const RULE_CATEGORY_BY_VALUE: ReadonlyMap<string, (typeof RULE_CATEGORIES)[number]> = new Map(
  RULE_CATEGORIES.map((c) => [c.value, c]),
);

/** Whether a rule's category value covers an item of this custody API category. */
export function categoryCovers(ruleValue: string, itemCategory: string): boolean {
  const group = RULE_CATEGORY_BY_VALUE.get(ruleValue);
  // A value the editor no longer offers (a stored rule's TOKEN_TRANSFER) means what it meant: itself.
  return group
    ? (group.covers as readonly string[]).includes(itemCategory)
    : ruleValue === itemCategory;
}

/** A rule's category in words: "Transfer", or an older, narrower value said to be so. */
export function ruleCategoryLabel(value: string): string {
  const group = RULE_CATEGORY_BY_VALUE.get(value);
  if (group) return group.label;
  const words = value.toLowerCase().replaceAll('_', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} (only what the custody API labels so)`;
}

const MAX_LIST = 50;

/** A condition's list: at least one entry (leave the condition out to match everything). */
function someOf<T extends z.core.SomeType>(item: T, what: string) {
  return z.optional(
    z
      .array(item)
      .check(
        z.minLength(1, `list at least one ${what}, or leave the condition out`),
        z.maxLength(MAX_LIST, `at most ${MAX_LIST} ${what}s`),
      ),
  );
}
const someId = z.string().check(z.trim(), z.minLength(1, 'an entry must not be empty'));

/**
 * What a rule matches. Every condition given must hold; a list matches any of
 * its entries; a condition left out matches everything.
 */
export const PolicyMatch = z.strictObject({
  subOrgIds: someOf(someId, 'sub-organization'),
  categories: someOf(z.enum(POLICY_CATEGORIES), 'category'),
  assets: someOf(someId, 'asset'),
  chains: someOf(someId, 'chain'),
  /** The item's value in USD is at least this (an item with no USD value matches). */
  amountUsdAtLeast: z.optional(PositiveDecimal),
  destinationKinds: someOf(DestinationKind, 'destination kind'),
  initiatorKinds: someOf(ActorKind, 'initiator'),
  /**
   * Velocity: the source vault's outflow over the last 24 hours, this item
   * included, is above this many USD (an item with no USD value matches).
   */
  outflow24hUsdAbove: z.optional(PositiveDecimal),
});
export type PolicyMatch = z.infer<typeof PolicyMatch>;

/**
 * Who counts towards a rule's approvals: anyone of the listed kinds, and the
 * named members whatever their role. Both empty: anyone who may decide.
 */
export const Approvers = z.strictObject({
  kinds: z.array(DecidingKind).check(z.maxLength(DECIDING_KINDS.length)),
  memberIds: z.array(someId).check(z.maxLength(MAX_LIST, `at most ${MAX_LIST} members`)),
});
export type Approvers = z.infer<typeof Approvers>;

export const MAX_APPROVALS = 10;

/** An item a rule lets through once enough eligible approvers approve it. */
export const AllowOutcome = z.strictObject({
  action: z.literal('ALLOW'),
  approvals: z
    .int({ error: 'approvals must be a whole number' })
    .check(
      z.gte(1, 'at least one approval'),
      z.lte(MAX_APPROVALS, `at most ${MAX_APPROVALS} approvals`),
    ),
  approvers: Approvers,
  /**
   * An API client may approve an item it created itself, as the provider's
   * SDKs do (create, then approve). A member never counts for their own item.
   */
  apiClientMayApproveOwn: z.boolean(),
});
export type AllowOutcome = z.infer<typeof AllowOutcome>;

export const PolicyOutcome = z.discriminatedUnion('action', [
  AllowOutcome,
  z.strictObject({ action: z.literal('BLOCK') }),
]);
export type PolicyOutcome = z.infer<typeof PolicyOutcome>;

export const PolicyRule = z.strictObject({
  id: z.string().check(z.trim(), z.minLength(1, 'a rule needs an id'), z.maxLength(64)),
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'give the rule a name'),
    z.maxLength(80, 'at most 80 characters'),
    z.superRefine((value, ctx) => {
      const problem = displayTextProblem('name', value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ),
  match: PolicyMatch,
  outcome: PolicyOutcome,
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const MAX_RULES = 100;

/** One kind of item's policy: transactions, or bank accounts and contacts. */
export const Policy = z
  .strictObject({
    rules: z.array(PolicyRule).check(z.maxLength(MAX_RULES, `at most ${MAX_RULES} rules`)),
    /** What applies when no rule matches. */
    fallback: AllowOutcome,
    /**
     * Whether a payment run's schedule may be pre-approved (its occurrences
     * paid on the schedule's one approval, within the cap it was approved
     * with), and up to what cap per occurrence. Left out: never (each
     * occurrence is approved like a new run). Read from the transactions
     * policy only.
     */
    schedulePreApproval: z.optional(z.strictObject({ maxOccurrenceUsd: PositiveDecimal })),
  })
  .check(
    z.superRefine((policy, ctx) => {
      const seen = new Set<string>();
      policy.rules.forEach((rule, index) => {
        if (seen.has(rule.id))
          ctx.addIssue({
            code: 'custom',
            path: ['rules', index, 'id'],
            message: `rule id "${rule.id}" is used twice`,
          });
        seen.add(rule.id);
      });
    }),
  );
export type Policy = z.infer<typeof Policy>;

/**
 * A fresh console's policy: today's behaviour. One approval from anyone but
 * the creator; an API client may approve what it created itself.
 */
export const DEFAULT_POLICY: Policy = {
  rules: [],
  fallback: {
    action: 'ALLOW',
    approvals: 1,
    approvers: { kinds: [], memberIds: [] },
    apiClientMayApproveOwn: true,
  },
};

/**
 * What applied to one item when it was created, kept with the item so a
 * later policy change cannot loosen it.
 */
export const FrozenRequirement = z.strictObject({
  policyVersion: z.int().check(z.nonnegative()),
  /** null: the policy's fallback. */
  ruleId: z.nullable(z.string()),
  ruleName: z.string(),
  outcome: PolicyOutcome,
  /**
   * A kind's own limits on who counts, beyond the outcome's (a staff change,
   * a policy publish); a policy's rule never sets them. Members who never
   * count, whatever their role: the member a staff change is about, a
   * draft's editors.
   */
  excluded: z.optional(z.array(z.string())),
  /**
   * Members whose linked accounts never count (one created the other's
   * account, so both may be one person), each with the member who created
   * theirs: the proposer, a draft's editors.
   */
  unlinkedFrom: z.optional(
    z.array(
      z.strictObject({ id: z.string(), name: z.string(), createdBy: z.nullable(z.string()) }),
    ),
  ),
  /**
   * Only a member who administers these sub-organizations counts (null: only
   * a member of all of them): a restricted admin decides only inside theirs.
   */
  deciderAdministers: z.optional(z.strictObject({ subOrgIds: z.nullable(z.array(z.string())) })),
});
export type FrozenRequirement = z.infer<typeof FrozenRequirement>;

const KIND_NAMES: Record<ActorKind, string> = {
  viewer: 'viewers',
  initiator: 'initiators',
  approver: 'approvers',
  admin: 'admins',
  api_client: 'API clients',
};

function oneOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** Who counts, in words: "approvers or admins", "Ada Approver or admins", "anyone who may approve". */
export function describeApprovers(approvers: Approvers, nameOf: (id: string) => string): string {
  const named = [
    ...approvers.memberIds.map(nameOf),
    ...approvers.kinds.map((kind) => KIND_NAMES[kind]),
  ];
  return named.length === 0 ? 'anyone who may approve' : oneOf(named);
}

/** An outcome in words: "Blocked", "2 approvals from admins". */
export function describeOutcome(outcome: PolicyOutcome, nameOf: (id: string) => string): string {
  if (outcome.action === 'BLOCK') return 'Blocked';
  const count = outcome.approvals === 1 ? '1 approval' : `${outcome.approvals} approvals`;
  return `${count} from ${describeApprovers(outcome.approvers, nameOf)}`;
}

/**
 * A rule's conditions in words: "Transfer or Off-ramp ≥ $100,000.00 in
 * Treasury", "Any category ≥ $10,000.00": the categories always named, so a
 * threshold alone reads as what it covers.
 */
export function describeMatch(match: PolicyMatch, nameOf: (id: string) => string): string {
  const parts = [
    match.categories ? oneOf(match.categories.map(ruleCategoryLabel)) : 'Any category',
  ];
  if (match.assets) parts.push(`in ${oneOf(match.assets)}`);
  if (match.chains) parts.push(`on ${oneOf(match.chains)}`);
  if (match.amountUsdAtLeast) parts.push(`≥ $${formatUsd(match.amountUsdAtLeast)}`);
  if (match.subOrgIds) parts.push(`in ${oneOf(match.subOrgIds.map(nameOf))}`);
  if (match.destinationKinds)
    parts.push(
      `to ${oneOf(match.destinationKinds.map((k) => k.toLowerCase().replaceAll('_', ' ')))}`,
    );
  if (match.initiatorKinds)
    parts.push(`started by ${oneOf(match.initiatorKinds.map((k) => KIND_NAMES[k]))}`);
  if (match.outflow24hUsdAbove)
    parts.push(`once the vault's 24 h outflow passes $${formatUsd(match.outflow24hUsdAbove)}`);
  return parts.join(' ');
}

/** One line per rule, as the Policies page lists them. */
export function describeRule(rule: PolicyRule, nameOf: (id: string) => string): string {
  return `${describeMatch(rule.match, nameOf)} → ${describeOutcome(rule.outcome, nameOf)}`;
}

/**
 * One version of a policy. A draft is edited by admins (each editor kept);
 * another admin, none of its editors, publishes it: it becomes the active
 * version and the one before it is kept, retired, and can be restored the
 * same way (as a new draft). Version 0 is the built-in DEFAULT_POLICY.
 */
export const PolicyVersion = z.strictObject({
  kind: PolicyKind,
  /** The active or retired version's number; a draft has none until published. */
  version: z.nullable(z.int()),
  status: z.enum(['DRAFT', 'ACTIVE', 'RETIRED']),
  policy: Policy,
  /** A draft's revision, raised by each save: publishing names the revision reviewed. */
  revision: z.int(),
  /** The version a draft was made from (the active one when it was begun, or the one restored). */
  basedOn: z.nullable(z.int()),
  editors: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  updatedAt: z.nullable(IsoTimestamp),
  publishedBy: z.nullable(z.strictObject({ id: z.string(), name: z.string() })),
  publishedAt: z.nullable(IsoTimestamp),
  /**
   * A draft's revision is an approvable item (its publish): decided on its own
   * page, `/approvals/held/{publishItem}`, signed over its card. Null for a
   * version published or the console's default.
   */
  publishItem: z.nullable(z.string()),
});
export type PolicyVersion = z.infer<typeof PolicyVersion>;

export const PolicyState = z.strictObject({
  active: PolicyVersion,
  draft: z.nullable(PolicyVersion),
  /** Every version published before the active one, newest first. */
  history: z.array(PolicyVersion),
});
export type PolicyState = z.infer<typeof PolicyState>;

/** Saves the draft: the whole policy, and the revision it was edited from (0: no draft yet). */
export const PolicyDraftRequest = z.strictObject({
  policy: Policy,
  revision: z.int().check(z.nonnegative()),
});
export type PolicyDraftRequest = z.infer<typeof PolicyDraftRequest>;

/** Publishes exactly the draft revision the reviewer read. */
export const PolicyPublishRequest = z.strictObject({
  revision: z.int().check(z.positive()),
  /**
   * The publish is an approval: a member with a passkey signs the card of the
   * revision reviewed (contract/approval-signature.ts), as on the inbox.
   */
  intent: z.optional(SignedIntent),
});

/** "What would this need?": an item described by the facts a rule can look at. */
export const PolicyPreviewRequest = z.strictObject({
  /** Ask the draft instead of the active version. */
  draft: z.optional(z.boolean()),
  subOrgId: z.nullable(z.string()),
  category: z.optional(z.enum(TRANSACTION_CATEGORIES)),
  asset: z.optional(z.string()),
  chain: z.optional(z.string()),
  amountUsd: z.nullable(PositiveDecimal),
  destinationKind: z.optional(DestinationKind),
  initiatorKind: ActorKind,
  outflow24hUsd: z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.regex(
            /^(0|[1-9]\d*)(\.\d+)?$/,
            'outflow24hUsd must be a decimal number written as a string',
          ),
        ),
    ),
  ),
});
export type PolicyPreviewRequest = z.infer<typeof PolicyPreviewRequest>;

export const PolicyPreviewResponse = z.strictObject({
  requirement: FrozenRequirement,
  /** The outcome in words: "2 approvals from admins", "Blocked". */
  summary: z.string(),
});
export type PolicyPreviewResponse = z.infer<typeof PolicyPreviewResponse>;
