import type { AllowOutcome, Policy, PolicyRule } from '#contract/policies.ts';

/**
 * What a draft changes against the active policy, rule by rule, as a
 * reviewer reads it before publishing: rules added, removed, changed (same
 * rule, other conditions, outcome or name) and moved (same rule, another
 * place in the order, which decides what the first match is), and whether
 * the fallback changed. Rules are the same rule by id.
 */
export type PolicyChange =
  | { type: 'added'; rule: PolicyRule; position: number }
  | { type: 'removed'; rule: PolicyRule; position: number }
  | { type: 'changed'; before: PolicyRule; after: PolicyRule; position: number }
  | { type: 'moved'; rule: PolicyRule; from: number; to: number }
  | { type: 'fallback'; before: AllowOutcome; after: AllowOutcome };

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** JSON with keys in order and absent conditions left out, so key order never reads as a change. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, inner]) => inner !== undefined)
            .sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/**
 * The ids kept in their order, longest such run: a rule outside it is the
 * one that moved (one rule moved up reads as one move, not as every rule it
 * passed shifting down).
 */
function keptInOrder(before: string[], after: string[]): Set<string> {
  const n = before.length;
  const m = after.length;
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      table[i]![j] =
        before[i] === after[j]
          ? table[i + 1]![j + 1]! + 1
          : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < n && j < m;) {
    if (before[i] === after[j]) {
      kept.add(before[i]!);
      i += 1;
      j += 1;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i += 1;
    else j += 1;
  }
  return kept;
}

/** Positions are 1-based, as the page numbers the rules. */
export function diffPolicies(active: Policy, draft: Policy): PolicyChange[] {
  const changes: PolicyChange[] = [];
  const before = new Map(active.rules.map((rule, index) => [rule.id, { rule, index }]));
  const after = new Map(draft.rules.map((rule, index) => [rule.id, { rule, index }]));
  active.rules.forEach((rule, index) => {
    if (!after.has(rule.id)) changes.push({ type: 'removed', rule, position: index + 1 });
  });
  const common = (rules: PolicyRule[], other: Map<string, unknown>) =>
    rules.map((r) => r.id).filter((id) => other.has(id));
  const kept = keptInOrder(common(active.rules, after), common(draft.rules, before));
  draft.rules.forEach((rule, index) => {
    const old = before.get(rule.id);
    if (!old) {
      changes.push({ type: 'added', rule, position: index + 1 });
      return;
    }
    if (!kept.has(rule.id))
      changes.push({ type: 'moved', rule, from: old.index + 1, to: index + 1 });
    if (!same(old.rule, rule))
      changes.push({ type: 'changed', before: old.rule, after: rule, position: index + 1 });
  });
  if (!same(active.fallback, draft.fallback))
    changes.push({ type: 'fallback', before: active.fallback, after: draft.fallback });
  return changes;
}
