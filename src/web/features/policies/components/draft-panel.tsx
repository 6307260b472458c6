import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PolicyVersion } from '#contract/policies.ts';
import { ActionDialog, ConfirmActions } from '../../../components/action-dialog.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import type { useDiscardPolicyDraft } from '../api/policy-queries.ts';
import { diffPolicies } from '../policy-diff.ts';
import { PolicyDiff } from './policy-lines.tsx';

type Send<V> = (variables: V, options?: { onSuccess?: () => void }) => void;

export interface DraftActions {
  discard: ReturnType<typeof useDiscardPolicyDraft>;
  sendDiscard: Send<void>;
}

/**
 * The open draft: who edited it, its revision, and what it changes. Publishing
 * is a second admin's, one who never edited it, decided as every held item is:
 * on the revision's own page (`/approvals/held/$entityId`), its card saying
 * what publishing changes and the decision signed over it. Each save makes a
 * new item, so the page decides exactly the revision it shows.
 */
export function DraftPanel({
  draft,
  active,
  nameOf,
  memberId,
  mayChange,
  actions,
  onEdit,
}: {
  draft: PolicyVersion;
  active: PolicyVersion;
  nameOf: (id: string) => string;
  memberId: string | undefined;
  /** An admin of every sub-organization: the only members who change policies. */
  mayChange: boolean;
  actions: DraftActions;
  /** Opens the editor on this draft; absent while it is open. */
  onEdit: (() => void) | undefined;
}) {
  const changes = diffPolicies(active.policy, draft.policy);
  const editedByYou = draft.editors.some((e) => e.id === memberId);
  return (
    <Panel title="Draft" tone="attention">
      <p className="mt-1 text-sm text-slate-800" data-testid="draft-facts">
        Revision {draft.revision}, begun from version {draft.basedOn ?? 0}; edited by{' '}
        {draft.editors.map((e) => e.name).join(', ') || 'nobody yet'}
        {draft.updatedAt ? (
          <>
            , last saved <DateTime iso={draft.updatedAt} />
          </>
        ) : null}
        .
      </p>
      <h3 className="mt-3 text-sm font-semibold text-slate-900">Changes from the active policy</h3>
      <PolicyDiff changes={changes} nameOf={nameOf} />
      {mayChange ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {editedByYou ? (
            <p className="text-sm text-slate-800" data-testid="publish-blocked">
              You edited this draft, so another admin who did not edit it must review and publish it
              (four-eyes rule).
            </p>
          ) : (
            draft.publishItem && (
              <Link
                to="/approvals/held/$entityId"
                params={{ entityId: draft.publishItem }}
                className={buttonVariants({ variant: 'primary' })}
              >
                {`Review and publish revision ${draft.revision}…`}
              </Link>
            )
          )}
          {onEdit ? <Button onClick={onEdit}>Edit draft</Button> : null}
          <DiscardDialog actions={actions} />
        </div>
      ) : null}
    </Panel>
  );
}

function DiscardDialog({ actions: { discard, sendDiscard } }: { actions: DraftActions }) {
  const [open, setOpen] = useState(false);
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      onClosed={discard.reset}
      trigger={<Button variant="destructive">Discard draft…</Button>}
      title="Discard the draft?"
      description="Its changes are lost; the active policy stays as it is."
    >
      <ConfirmActions
        mutation={discard}
        label="Discard draft"
        runningLabel="Discarding…"
        variant="destructive"
        cancelLabel="Keep the draft"
        onConfirm={() => sendDiscard(undefined, { onSuccess: () => setOpen(false) })}
      />
    </ActionDialog>
  );
}
