import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { DEFAULT_POLICY, PolicyState, PolicyVersion, type Policy } from '#contract/policies.ts';
import { approvalEvents, approvalRequirements, auditLog } from '../../../db/schema/console.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { signIntent, withPasskey } from '../../../test/signed-intents.ts';
import { publishChange } from './policy-publish.ts';
import type { StaffSession } from '../../../test/staff-session.ts';

/**
 * A policy publish is an approvable kind the console holds: the draft's
 * revision waits in the inbox of the admins who may publish it, with a card
 * saying what it changes against the published version; it is decided
 * through the core, signed by a member with a passkey, whichever route the
 * decision comes by; and it is published once, at the revision decided.
 */

const appTest = appTestWith();
appTest.beforeAll(async ({ t: _t }) => {});

const URL = '/api/console/policies/accounts/';

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const large: Policy = {
  ...DEFAULT_POLICY,
  rules: [
    {
      id: 'large',
      name: 'Large accounts',
      match: { amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
};

async function heldOf(who: StaffSession): Promise<Array<{ id: string; card: unknown }>> {
  const res = await who.json(`${pathOf(approvalInbox, {})}?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body as { results: Array<{ id: string; kind: string; card: unknown }> }
  ).results.filter((r) => r.kind === 'HELD' && r.id.startsWith('policy-draft-'));
}

describe('a policy publish on the approval core', () => {
  appTest(
    'waits in the inbox with what it changes, and is published from it, signed, once',
    async ({ t }) => {
      const editor = await t.signIn('admin', { name: 'Eda Editor' });
      const ada = await withPasskey(t, 'Ada Publisher', 'admin');
      const saved = await editor.json(`${URL}draft/`, send('PUT', { policy: large, revision: 0 }));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);

      const [item, ...more] = await heldOf(ada.session);
      expect(more).toEqual([]);
      expect(item).toMatchObject({
        card: {
          intent: {
            kind: 'POLICY_PUBLISH',
            change: {
              summary: expect.stringMatching(/revision 1 of the accounts policy/),
              lines: expect.arrayContaining([
                {
                  label: 'Rule “Large accounts”',
                  before: null,
                  after: expect.stringMatching(/≥ \$10,000\.00 → 2 approvals from admins/),
                },
                {
                  label: 'Threshold of “Large accounts”',
                  before: 'no threshold',
                  after: '≥ $10,000.00',
                },
              ]),
            },
          },
          status: { quorum: { required: 1 } },
        },
      });
      // The editor's own publish never counts; nor does an approver see it to decide.
      expect(await heldOf(await t.signIn('approver'))).toEqual([]);
      const id = item!.id;
      const own = await editor.json(
        pathOf(decideApprovable, { entityId: id }),
        send('POST', { action: 'approve' }),
      );
      expect(own.status, JSON.stringify(own.body)).toBe(403);
      expect(own.body).toMatchObject({ code: 'FOUR_EYES' });
      // A member with a passkey publishes only signed, on the Policies page's route too.
      const unsigned = await ada.session.json(
        `${URL}draft/publish/`,
        send('POST', { revision: 1 }),
      );
      expect(unsigned.status, JSON.stringify(unsigned.body)).toBe(403);
      expect(unsigned.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });

      const published = await ada.session.json(
        pathOf(decideApprovable, { entityId: id }),
        send('POST', { action: 'approve', intent: await signIntent(ada, id) }),
      );
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      expect(published.body).toMatchObject({ status: 'APPROVED' });
      const state = PolicyState.parse((await ada.session.json(URL)).body);
      expect(state.draft).toBeNull();
      expect(state.active).toMatchObject({
        policy: large,
        publishedBy: { id: ada.session.member.id },
      });
      expect(await heldOf(ada.session)).toEqual([]);
    },
  );

  appTest('a decision on an earlier revision publishes nothing', async ({ t }) => {
    const editor = await t.signIn('admin');
    const other = await t.signIn('admin');
    const state = PolicyState.parse((await editor.json(URL)).body);
    const first = await editor.json(
      `${URL}draft/`,
      send('PUT', { policy: DEFAULT_POLICY, revision: state.draft?.revision ?? 0 }),
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const [older] = await heldOf(other);
    const { revision } = PolicyVersion.parse(first.body);
    const second = await editor.json(`${URL}draft/`, send('PUT', { policy: large, revision }));
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const late = await other.json(
      pathOf(decideApprovable, { entityId: older!.id }),
      send('POST', { action: 'approve' }),
    );
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect(PolicyState.parse((await other.json(URL)).body).draft).not.toBeNull();
  });

  appTest(
    "a discarded or replaced draft's publish items are settled, once, with a live event and in the audit log",
    async ({ t }) => {
      const editor = await t.signIn('admin');
      const other = await t.signIn('admin');
      const open = PolicyState.parse((await editor.json(URL)).body).draft;
      const first = PolicyVersion.parse(
        (
          await editor.json(
            `${URL}draft/`,
            send('PUT', { policy: DEFAULT_POLICY, revision: open?.revision ?? 0 }),
          )
        ).body,
      );
      const replaced = first.publishItem!;
      const second = PolicyVersion.parse(
        (
          await editor.json(
            `${URL}draft/`,
            send('PUT', { policy: large, revision: first.revision }),
          )
        ).body,
      );
      const discarded = second.publishItem!;
      expect(discarded).not.toBe(replaced);
      expect((await heldOf(other)).map((i) => i.id)).toEqual([discarded]);

      const gone = await editor.json(`${URL}draft/`, send('DELETE'));
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      expect(await editor.json(`${URL}draft/`, send('DELETE'))).toMatchObject({ status: 404 });

      // Neither waits any longer: settled (declined: nothing was published), each once.
      const settled = await t.db
        .select({ id: approvalRequirements.entityId, settled: approvalRequirements.settled })
        .from(approvalRequirements)
        .where(like(approvalRequirements.entityId, `${discarded.replace(/-r\d+$/, '')}-r%`));
      expect(settled.filter((r) => [replaced, discarded].includes(r.id))).toEqual(
        expect.arrayContaining([
          { id: replaced, settled: 'DECLINED' },
          { id: discarded, settled: 'DECLINED' },
        ]),
      );
      for (const id of [replaced, discarded]) {
        const events = await t.db
          .select({ kind: approvalEvents.kind, status: approvalEvents.status })
          .from(approvalEvents)
          .where(and(eq(approvalEvents.entityId, id), eq(approvalEvents.kind, 'DECIDED')));
        expect(events, id).toEqual([{ kind: 'DECIDED', status: 'WITHDRAWN' }]);
      }
      const [discard] = await t.db
        .select({ summary: auditLog.summary })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'policy.discard'), eq(auditLog.outcome, 'success')));
      expect(discard?.summary).toContain(`its publish item ${discarded} is withdrawn`);
      const decided = await other.json(
        pathOf(decideApprovable, { entityId: discarded }),
        send('POST', { action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(404);
      expect(await heldOf(other)).toEqual([]);
    },
  );

  it('shows turning pre-approved schedules on, or changing their ceiling, as a line of its own', () => {
    const on = { ...DEFAULT_POLICY, schedulePreApproval: { maxOccurrenceUsd: '25000' } };
    expect(
      publishChange('transactions', 2, { version: 1, policy: DEFAULT_POLICY }, on).lines,
    ).toEqual([
      {
        label: 'Pre-approved payment run schedules',
        before: 'Not allowed: each occurrence approved like a new run',
        after: 'Allowed, up to $25,000.00 per occurrence',
      },
    ]);
    expect(publishChange('transactions', 3, { version: 2, policy: on }, on).lines).toEqual([]);
  });
});
