import { useState } from 'react';
import type { PolicyVersion } from '#contract/policies.ts';
import { ActionDialog, ConfirmActions } from '../../../components/action-dialog.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { useDiscardPolicyDraft, usePublishPolicyDraft } from '../api/policy-queries.ts';
import { diffPolicies } from '../policy-diff.ts';
import { PolicyDiff } from './policy-lines.tsx';

type Send<V> = (variables: V, options?: { onSuccess?: () => void }) => void;

export interface DraftActions {
  publish: ReturnType<typeof usePublishPolicyDraft>;
  sendPublish: Send<number>;
  discard: ReturnType<typeof useDiscardPolicyDraft>;
  sendDiscard: Send<void>;
}

/**
 * The open draft: who edited it, its revision, and what it changes. Publishing
 * is a second admin's, one who never edited it; the dialog repeats the changes
 * as they were when it opened and publishes exactly that revision (a draft
 * saved since is refused, POLICY_DRAFT_CHANGED, and read again).
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
            <PublishDialog draft={draft} active={active} nameOf={nameOf} actions={actions} />
          )}
          {onEdit ? <Button onClick={onEdit}>Edit draft</Button> : null}
          <DiscardDialog actions={actions} />
        </div>
      ) : null}
    </Panel>
  );
}

function PublishDialog({
  draft,
  active,
  nameOf,
  actions: { publish, sendPublish },
}: {
  draft: PolicyVersion;
  active: PolicyVersion;
  nameOf: (id: string) => string;
  actions: DraftActions;
}) {
  const [open, setOpen] = useState(false);
  // What the reviewer reads is what is published: the draft as the dialog opened.
  const [reviewed, setReviewed] = useState(draft);
  return (
    <ActionDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setReviewed(draft);
        setOpen(next);
      }}
      onClosed={publish.reset}
      trigger={<Button variant="primary">Publish…</Button>}
      title={`Publish revision ${reviewed.revision} of the draft?`}
      description="Once published it decides every new item. Items already created keep the rule that applied when they were created."
    >
      <PolicyDiff
        changes={diffPolicies(active.policy, reviewed.policy)}
        nameOf={nameOf}
        label="Changes you are publishing"
      />
      <ConfirmActions
        mutation={publish}
        label="Publish policy"
        runningLabel="Publishing…"
        onConfirm={() => sendPublish(reviewed.revision, { onSuccess: () => setOpen(false) })}
      />
    </ActionDialog>
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
