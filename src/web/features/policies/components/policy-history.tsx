import { useState } from 'react';
import type { PolicyVersion } from '#contract/policies.ts';
import { MutationError } from '../../../components/action-dialog.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import type { useRestorePolicyVersion } from '../api/policy-queries.ts';
import { PublishedBy } from './active-policy.tsx';
import { PolicyRules } from './policy-lines.tsx';

/**
 * Every version published before the active one, newest first. An earlier
 * version comes back the way any change does: restored as a draft, which
 * another admin reviews and publishes.
 */
export function PolicyHistory({
  history,
  nameOf,
  restore,
  mayRestore,
  restoreBlocked,
  onRestored,
}: {
  history: PolicyVersion[];
  nameOf: (id: string) => string;
  restore: ReturnType<typeof useRestorePolicyVersion>;
  /** An admin of every sub-organization: the only members who change policies. */
  mayRestore: boolean;
  /** Why an admin may not restore now (a draft is open), or null. */
  restoreBlocked: string | null;
  onRestored: (message: string) => void;
}) {
  const send = useSendOnce(restore);
  const [restoring, setRestoring] = useState<number | null>(null);
  return (
    <Panel title="History">
      {history.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">No earlier versions yet.</p>
      ) : (
        <ol aria-label="Earlier versions" className="mt-2 flex flex-col gap-3">
          {history.map((version) => {
            const number = version.version ?? 0;
            return (
              <li key={number} className="rounded-md border border-slate-200 p-3">
                <h3 className="text-sm font-semibold text-slate-900">Version {number}</h3>
                <p className="text-sm text-slate-800">
                  <PublishedBy version={version} />.
                </p>
                <details className="mt-1 text-sm">
                  <summary className="cursor-pointer text-blue-800">
                    Its rules ({version.policy.rules.length})
                  </summary>
                  <PolicyRules
                    policy={version.policy}
                    nameOf={nameOf}
                    label={`Rules of version ${number}`}
                  />
                </details>
                {mayRestore && restoreBlocked === null ? (
                  <div className="mt-2">
                    <Button
                      size="sm"
                      disabled={restore.isPending}
                      onClick={() => {
                        setRestoring(number);
                        send(number, {
                          onSuccess: () =>
                            onRestored(
                              `Version ${number} restored as a draft: another admin reviews and publishes it.`,
                            ),
                        });
                      }}
                    >
                      {restore.isPending && restoring === number
                        ? 'Restoring…'
                        : `Restore version ${number} as draft`}
                    </Button>
                    {restoring === number ? <MutationError error={restore.error} /> : null}
                  </div>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {mayRestore && restoreBlocked && history.length > 0 ? (
        <p className="mt-2 text-sm text-slate-700">{restoreBlocked}</p>
      ) : null}
    </Panel>
  );
}
