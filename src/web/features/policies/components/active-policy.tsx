import type { PolicyVersion } from '#contract/policies.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { PolicyRules } from './policy-lines.tsx';

/** Who published a version and when; version 0 is the console's own default. */
export function PublishedBy({ version }: { version: PolicyVersion }) {
  if (!version.publishedBy || !version.publishedAt)
    return <>the console&rsquo;s built-in default</>;
  return (
    <>
      published by {version.publishedBy.name} on <DateTime iso={version.publishedAt} />
    </>
  );
}

/** The policy every new item is checked against, in the order its rules are tried. */
export function ActivePolicy({
  active,
  nameOf,
}: {
  active: PolicyVersion;
  nameOf: (id: string) => string;
}) {
  return (
    <Panel title="Active policy">
      <p className="mt-1 text-sm text-slate-800" data-testid="active-version">
        Version {active.version ?? 0}, <PublishedBy version={active} />.
      </p>
      <p className="mt-1 text-sm text-slate-700">
        Rules are tried in order; the first that matches decides. Items already created keep the
        rule that applied when they were created: a change here never loosens what is pending.
      </p>
      <PolicyRules policy={active.policy} nameOf={nameOf} label="Rules of the active policy" />
    </Panel>
  );
}
