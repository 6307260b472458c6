import type { Policy } from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { discardDraft, publishDraft, saveDraft } from '../capabilities/policies/policies.store.ts';
import type { Database } from '../db/client.ts';
import type { StaffSession } from './staff-session.ts';

/**
 * Makes `policy` the active `kind` policy for a test's set-up: any open draft
 * discarded, a draft saved by `editor`, published by `reviewer` at `now`
 * straight through the store (who may publish is the approval core's
 * verdict, proven in policies/publish/). `await publishPolicy(t.db,
 * 'transactions', policy, { editor, reviewer, now: t.authClock.now() })`.
 */
export async function publishPolicy(
  db: Database,
  kind: PolicyKind,
  policy: Policy,
  by: { editor: StaffSession; reviewer: StaffSession; now: Date },
): Promise<void> {
  const who = (s: StaffSession) => ({ id: s.member.id, name: s.member.name });
  await discardDraft(db, kind);
  const draft = await saveDraft(db, kind, { policy, revision: 0 }, who(by.editor), by.now);
  await publishDraft(db, kind, draft.revision, who(by.reviewer), by.now);
}
