import {
  progressCount,
  waitingFor,
  type ApprovalProgress,
  type ProgressDecision,
} from '#contract/approval-progress.ts';
import { useApprovalProgress } from '../lib/approval-progress-queries.ts';
import { DateTime } from './date-time.tsx';

/**
 * The approvals an item has collected under the rule frozen on it when it was
 * created, and who may still add one: "1 of 2 under the rule “Big
 * transfers”: Ada Approver ✓ 14:02; waiting for one more of: Bo Approver,
 * Cy Admin (approvers or admins)". The same on the transaction, bank-account
 * and contact pages (the inbox shows it in short, `ApprovalProgressLine`).
 */

function decider(decision: ProgressDecision): string {
  return decision.type === 'API_USER'
    ? `${decision.name ?? decision.id} (API client)`
    : (decision.name ?? decision.id);
}

export function ApprovalProgressView({ progress }: { progress: ApprovalProgress }) {
  const waiting = waitingFor(progress);
  return (
    <div className="flex flex-col gap-1 text-sm text-slate-900" data-testid="approval-progress">
      <p>
        <span className="font-semibold">
          {progress.blocked ? progressCount(progress) : `${progressCount(progress)} approvals`}
        </span>
        {progress.blocked ? null : <> under the rule “{progress.ruleName}”</>}
      </p>
      {progress.approvals.length > 0 ? (
        <ul className="flex flex-col gap-0.5" aria-label="Approvals collected">
          {progress.approvals.map((approval) => (
            <li key={`${approval.type}:${approval.id}`}>
              {decider(approval)} <span aria-label="approved">✓</span>{' '}
              <DateTime iso={approval.at} />
            </li>
          ))}
        </ul>
      ) : null}
      {waiting ? <p>{waiting.charAt(0).toUpperCase() + waiting.slice(1)}.</p> : null}
      <p className="text-xs text-slate-700">
        The rule is the one that applied when this was created (policy version{' '}
        {progress.policyVersion}): a later change to the policy does not loosen it.
      </p>
    </div>
  );
}

/** The progress of one item, read from the server; nothing while it loads or when no rule was frozen on it. */
export function ApprovalProgressFor({ entityId }: { entityId: string }) {
  const progress = useApprovalProgress(entityId);
  if (!progress.data) return null;
  return <ApprovalProgressView progress={progress.data} />;
}

/** The inbox's short form: "1 of 2 · waiting for one more of: …". */
export function ApprovalProgressLine({ progress }: { progress: ApprovalProgress }) {
  const waiting = waitingFor(progress);
  return (
    <span className="text-xs text-slate-700" data-testid="inbox-progress">
      {progress.blocked ? progressCount(progress) : `${progressCount(progress)} approvals`}
      {progress.approvals.length > 0 ? ` (${progress.approvals.map(decider).join(', ')} ✓)` : ''}
      {waiting ? ` · ${waiting}` : ''}
    </span>
  );
}

/**
 * Said before a decision is made, where the member decides (the panel by the
 * buttons and the confirmation dialog): the server found that the item's
 * creator and this member are linked by member management, so the decision
 * will be allowed but flagged for review. role="note" so a screen reader
 * meets it with the decision. Nothing when not linked or while loading.
 */
export function LinkedAccountsNote({ entityId }: { entityId: string }) {
  const progress = useApprovalProgress(entityId);
  const linked = progress.data?.linkedToYou;
  if (!linked) return null;
  const how =
    linked.direction === 'YOU_CREATED_THEM'
      ? 'you created their console account'
      : 'they created your console account';
  return (
    <p
      role="note"
      data-testid="linked-accounts-note"
      className="rounded-md border border-amber-400 bg-amber-50 p-2 text-sm text-amber-950"
    >
      You and {linked.name} are linked accounts ({how}): this decision will be flagged for review.
    </p>
  );
}

/**
 * Said instead of the decision to a member who approved an item its rule
 * holds for more: "You approved at 14:02 — waiting on one more of: …", the
 * time in their own zone. Nothing is left for them to decide.
 */
export function YouApproved({ at, progress }: { at: string; progress: ApprovalProgress | null }) {
  const waiting = progress ? waitingFor(progress) : null;
  return (
    <span data-testid="you-approved">
      You approved at <DateTime iso={at} />
      {waiting ? ` — ${waiting.replace(/^waiting for/, 'waiting on')}` : ''}.
    </span>
  );
}

/** When `memberId` approved the item, by its progress; null when they have not. */
export function approvedBy(
  progress: ApprovalProgress | null | undefined,
  memberId: string | undefined,
) {
  return progress?.approvals.find((a) => a.type === 'STAFF' && a.id === memberId)?.at ?? null;
}
