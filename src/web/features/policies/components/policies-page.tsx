import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import type { PolicyState } from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Panel } from '../../../components/panel.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { referenceQueries, subOrgOptions } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import {
  policyQueries,
  useDiscardPolicyDraft,
  useRestorePolicyVersion,
} from '../api/policy-queries.ts';
import { usePolicyNames } from '../use-policy-names.ts';
import { ActivePolicy } from './active-policy.tsx';
import { DraftPanel } from './draft-panel.tsx';
import { PolicyEditor } from './policy-editor.tsx';
import { PolicyHistory } from './policy-history.tsx';
import { PolicyPreview } from './policy-preview.tsx';

const KINDS: Array<{ kind: PolicyKind; label: string }> = [
  { kind: 'transactions', label: 'Transactions' },
  { kind: 'accounts', label: 'Bank accounts and contacts' },
];

const tabClass =
  'rounded-md border px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 border-slate-300 bg-white text-slate-900 hover:bg-slate-100 aria-[current=page]:border-blue-700 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white';

/**
 * `/policies`: who must approve what. Every member reads the active policy,
 * its draft and history, and asks what an item would need; admins of every
 * sub-organization draft, and another such admin publishes (the server
 * refuses anyone else whatever this page offers).
 */
export function PoliciesPage({ kind }: { kind: PolicyKind }) {
  const state = useQuery(policyQueries.state(kind));
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section id="policies-page" aria-labelledby="policies-title" className="flex flex-col gap-6">
      <title>Approval policies · Custody Console</title>
      <h1 id="policies-title" className="text-2xl font-semibold text-slate-900">
        Approval policies
      </h1>
      <nav aria-label="Policy kind">
        <ul className="flex flex-wrap gap-2">
          {KINDS.map((k) => (
            <li key={k.kind}>
              <Link
                to="/policies"
                search={{ kind: k.kind }}
                className={tabClass}
                activeOptions={{ includeSearch: true }}
                aria-current={k.kind === kind ? 'page' : undefined}
              >
                {k.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div aria-busy={state.isPending} className="flex flex-col gap-6">
        {state.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : state.isError ? (
          <ErrorState
            title="The policy could not be loaded"
            error={state.error}
            onRetry={() => void state.refetch()}
            retrying={state.isFetching}
          />
        ) : (
          <PolicyParts key={kind} kind={kind} state={state.data} />
        )}
      </div>
    </section>
  );
}

function PolicyParts({ kind, state }: { kind: PolicyKind; state: PolicyState }) {
  const session = useSession();
  const nameOf = usePolicyNames();
  const mayChange = useCan('edit-policies');
  const [editing, setEditing] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  // The changes live here, not in the draft's panel: once discarded the panel is
  // gone, and a mutation's callbacks run only while the component that sent it is mounted.
  const discard = useDiscardPolicyDraft(kind);
  const restore = useRestorePolicyVersion(kind);
  const sendDiscard = useSendOnce(discard);
  const actions = {
    discard,
    sendDiscard: (_: void, options?: { onSuccess?: () => void }) =>
      sendDiscard(undefined, {
        onSuccess: () => {
          options?.onSuccess?.();
          setEditing(false);
          setDone('Draft discarded.');
        },
      }),
  };
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const staff = useQuery({ ...referenceQueries.staffMembers(), enabled: mayChange });
  const subOrgChoices = useMemo(() => subOrgOptions(subOrgs.data), [subOrgs.data]);
  const memberOptions = useMemo(
    () =>
      (staff.data?.results ?? [])
        .filter((m) => !m.disabled && m.role !== 'viewer' && m.role !== 'initiator')
        .map((m) => ({ value: m.id, label: m.name })),
    [staff.data],
  );
  const focusOnce = useCallback((el: HTMLParagraphElement | null) => el?.focus(), []);
  const draftOpen = state.draft !== null;

  return (
    <>
      {done ? (
        <p
          key={done}
          ref={focusOnce}
          tabIndex={-1}
          role="status"
          className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900 focus:outline-none"
        >
          {done}
        </p>
      ) : null}
      <ActivePolicy active={state.active} nameOf={nameOf} />
      {state.draft ? (
        <DraftPanel
          draft={state.draft}
          active={state.active}
          nameOf={nameOf}
          memberId={session?.member.id}
          mayChange={mayChange}
          actions={actions}
          onEdit={editing ? undefined : () => setEditing(true)}
        />
      ) : null}
      {mayChange && editing ? (
        <PolicyEditor
          kind={kind}
          state={state}
          subOrgs={subOrgChoices}
          members={memberOptions}
          memberId={session?.member.id}
          onDone={(message) => {
            setEditing(false);
            setDone(message);
          }}
        />
      ) : null}
      {mayChange && !editing && !draftOpen ? (
        <Panel title="Change the policy">
          <p className="mt-1 text-sm text-slate-700">
            Changes are made in a draft; another admin, one who did not edit it, reviews and
            publishes it.
          </p>
          <Button className="mt-3" onClick={() => setEditing(true)}>
            Begin a draft from the active policy
          </Button>
        </Panel>
      ) : null}
      <PolicyPreview kind={kind} hasDraft={draftOpen} subOrgs={subOrgChoices} nameOf={nameOf} />
      <PolicyHistory
        history={state.history}
        nameOf={nameOf}
        restore={restore}
        mayRestore={mayChange}
        restoreBlocked={
          draftOpen
            ? 'A draft is open: publish or discard it before restoring an earlier version.'
            : null
        }
        onRestored={setDone}
      />
    </>
  );
}
