import { describeOutcome, describeRule, type Policy, type PolicyRule } from '#contract/policies.ts';
import type { PolicyChange } from '../policy-diff.ts';

type NameOf = (id: string) => string;

/** One rule in one line: its name, then what it matches and what that needs. */
export function RuleLine({ rule, nameOf }: { rule: PolicyRule; nameOf: NameOf }) {
  return (
    <>
      <span className="font-medium">{rule.name}</span>
      {': '}
      <span>{describeRule(rule, nameOf)}</span>
    </>
  );
}

/** A policy's rules in the order they are tried, then what applies when none matches. */
export function PolicyRules({
  policy,
  nameOf,
  label,
}: {
  policy: Policy;
  nameOf: NameOf;
  label: string;
}) {
  return (
    <ol aria-label={label} className="mt-3 flex flex-col gap-2 text-sm">
      {policy.rules.map((rule, index) => (
        <li
          key={rule.id}
          data-rule-id={rule.id}
          className="flex gap-2 rounded-md border border-slate-200 p-2 break-words"
        >
          <span aria-hidden="true" className="text-slate-700 tabular-nums">
            {index + 1}.
          </span>
          <span className="min-w-0">
            <RuleLine rule={rule} nameOf={nameOf} />
          </span>
        </li>
      ))}
      <li className="rounded-md border border-dashed border-slate-300 p-2">
        <span className="font-medium">Otherwise</span> → {describeOutcome(policy.fallback, nameOf)}
      </li>
    </ol>
  );
}

function changeText(change: PolicyChange, nameOf: NameOf) {
  switch (change.type) {
    case 'added':
      return (
        <>
          <strong>Added</strong> as rule {change.position}:{' '}
          <RuleLine rule={change.rule} nameOf={nameOf} />
        </>
      );
    case 'removed':
      return (
        <>
          <strong>Removed</strong> rule {change.position}:{' '}
          <RuleLine rule={change.rule} nameOf={nameOf} />
        </>
      );
    case 'moved':
      return (
        <>
          <strong>Moved</strong> from {change.from} to {change.to}: {change.rule.name}
        </>
      );
    case 'changed':
      return (
        <>
          <strong>Changed</strong> rule {change.position}:{' '}
          <RuleLine rule={change.after} nameOf={nameOf} />{' '}
          <span className="text-slate-700">
            (was <RuleLine rule={change.before} nameOf={nameOf} />)
          </span>
        </>
      );
    case 'fallback':
      return (
        <>
          <strong>Otherwise</strong> → {describeOutcome(change.after, nameOf)}{' '}
          <span className="text-slate-700">(was {describeOutcome(change.before, nameOf)})</span>
        </>
      );
  }
}

/** The draft against the active policy, one line per change. */
export function PolicyDiff({
  changes,
  nameOf,
  label = 'Changes from the active policy',
}: {
  changes: PolicyChange[];
  nameOf: NameOf;
  label?: string;
}) {
  if (changes.length === 0)
    return (
      <p className="mt-2 text-sm text-slate-700">The draft is the same as the active policy.</p>
    );
  return (
    <ul aria-label={label} className="mt-2 flex flex-col gap-1 text-sm">
      {changes.map((change, index) => (
        <li key={index} className="rounded-md bg-slate-50 p-2 break-words">
          {changeText(change, nameOf)}
        </li>
      ))}
    </ul>
  );
}
