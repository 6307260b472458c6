import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, Resolver } from 'react-hook-form';
import * as z from 'zod/mini';
import {
  Policy,
  type ActorKind,
  type AllowOutcome,
  type DecidingKind,
  type DestinationKind,
  type PolicyCategory,
  type PolicyOutcome,
  type PolicyRule,
} from '#contract/policies.ts';

/**
 * The policy as the editor holds it: every condition present (an empty list
 * or text is "any"), lists of free text (assets, chains) as comma-separated
 * text, numbers as typed. Its paths are the policy's own, so each of the
 * contract's refusals lands on the field it names.
 */
export interface OutcomeForm {
  action: 'ALLOW' | 'BLOCK';
  approvals: string;
  approvers: { kinds: DecidingKind[]; memberIds: string[] };
  apiClientMayApproveOwn: boolean;
}

export interface RuleForm {
  id: string;
  name: string;
  match: {
    categories: PolicyCategory[];
    assets: string;
    chains: string;
    amountUsdAtLeast: string;
    destinationKinds: DestinationKind[];
    initiatorKinds: ActorKind[];
    subOrgIds: string[];
    outflow24hUsdAbove: string;
  };
  outcome: OutcomeForm;
}

export interface PolicyForm {
  rules: RuleForm[];
  fallback: OutcomeForm;
  /** Whether payment run schedules may be pre-approved, and up to what per occurrence (USD). */
  schedulePreApproval?: { allowed: boolean; maxOccurrenceUsd: string };
}

function outcomeToForm(outcome: PolicyOutcome): OutcomeForm {
  if (outcome.action === 'BLOCK')
    return {
      action: 'BLOCK',
      approvals: '1',
      approvers: { kinds: [], memberIds: [] },
      apiClientMayApproveOwn: false,
    };
  return {
    action: 'ALLOW',
    approvals: String(outcome.approvals),
    approvers: { kinds: [...outcome.approvers.kinds], memberIds: [...outcome.approvers.memberIds] },
    apiClientMayApproveOwn: outcome.apiClientMayApproveOwn,
  };
}

export function toForm(policy: Policy): PolicyForm {
  return {
    rules: policy.rules.map((rule) => ({
      id: rule.id,
      name: rule.name,
      match: {
        categories: [...(rule.match.categories ?? [])],
        assets: (rule.match.assets ?? []).join(', '),
        chains: (rule.match.chains ?? []).join(', '),
        amountUsdAtLeast: rule.match.amountUsdAtLeast ?? '',
        destinationKinds: [...(rule.match.destinationKinds ?? [])],
        initiatorKinds: [...(rule.match.initiatorKinds ?? [])],
        subOrgIds: [...(rule.match.subOrgIds ?? [])],
        outflow24hUsdAbove: rule.match.outflow24hUsdAbove ?? '',
      },
      outcome: outcomeToForm(rule.outcome),
    })),
    fallback: outcomeToForm(policy.fallback),
    schedulePreApproval: {
      allowed: policy.schedulePreApproval !== undefined,
      maxOccurrenceUsd: policy.schedulePreApproval?.maxOccurrenceUsd ?? '',
    },
  };
}

/**
 * A new rule: every condition empty (any category, any amount), one approval
 * from anyone who may approve, until edited. Nothing is pre-ticked: a
 * threshold typed alone must cover every category, as the hint says.
 */
export function newRule(id: string): RuleForm {
  return {
    id,
    name: '',
    match: {
      categories: [],
      assets: '',
      chains: '',
      amountUsdAtLeast: '',
      destinationKinds: [],
      initiatorKinds: [],
      subOrgIds: [],
      outflow24hUsdAbove: '',
    },
    outcome: outcomeToForm({
      action: 'ALLOW',
      approvals: 1,
      approvers: { kinds: [], memberIds: [] },
      apiClientMayApproveOwn: false,
    }),
  };
}

const list = <T>(values: T[]): T[] | undefined => (values.length > 0 ? values : undefined);
const words = (text: string) =>
  list(
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
/** "$10,000" is read as 10000: people write thresholds with separators. */
const usd = (text: string) => text.replace(/[\s,$]/g, '') || undefined;
// eslint-disable-next-line no-restricted-syntax -- a count of approvals, digits only (thresholds stay text: usd)
const whole = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

function allowOf(outcome: OutcomeForm): AllowOutcome {
  return {
    action: 'ALLOW',
    approvals: whole(outcome.approvals),
    approvers: { kinds: outcome.approvers.kinds, memberIds: outcome.approvers.memberIds },
    apiClientMayApproveOwn: outcome.apiClientMayApproveOwn,
  };
}

/** The policy the form says, before the contract checks it (absent conditions left out). */
export function toPolicy(form: PolicyForm): Policy {
  return {
    rules: form.rules.map(({ id, name, match, outcome }): PolicyRule => ({
      id,
      name,
      match: Object.fromEntries(
        Object.entries({
          subOrgIds: list(match.subOrgIds),
          categories: list(match.categories),
          assets: words(match.assets),
          chains: words(match.chains),
          amountUsdAtLeast: usd(match.amountUsdAtLeast),
          destinationKinds: list(match.destinationKinds),
          initiatorKinds: list(match.initiatorKinds),
          outflow24hUsdAbove: usd(match.outflow24hUsdAbove),
        }).filter(([, value]) => value !== undefined),
      ),
      outcome: outcome.action === 'BLOCK' ? { action: 'BLOCK' } : allowOf(outcome),
    })),
    fallback: allowOf(form.fallback),
    ...(form.schedulePreApproval?.allowed
      ? {
          schedulePreApproval: {
            maxOccurrenceUsd: usd(form.schedulePreApproval.maxOccurrenceUsd) ?? '',
          },
        }
      : {}),
  };
}

/**
 * The contract's `Policy` schema as the form's resolver: the server's very
 * rules, each refusal on the field its path names; one no field shows (the
 * list as a whole) goes to `root`.
 */
export const policyResolver: Resolver<PolicyForm, unknown, Policy> = (
  values,
  _context,
  options,
) => {
  const parsed = z.safeParse(Policy, toPolicy(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    const key = path === '' || path === 'rules' ? 'root' : path;
    // The decimal rule is worded for API callers ("written as a string"); a person typed a number.
    const message = issue.message.replace(' written as a string,', ',');
    errors[key] ??= { type: issue.code, message };
  }
  return { values: {}, errors: toNestErrors(errors, options) };
};
