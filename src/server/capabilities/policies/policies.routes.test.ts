import { describe, expect } from 'vitest';
import { AuditListResponse } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import {
  DEFAULT_POLICY,
  PolicyPreviewResponse,
  PolicyState,
  PolicyVersion,
  type Policy,
} from '#contract/policies.ts';
import { appTest } from '../../test/app-test.ts';
import type { StaffSession } from '../../test/staff-session.ts';

/**
 * Changing an approval policy needs four eyes. One admin edits a
 * draft, another who did not edit it publishes exactly the revision they
 * reviewed; every version is kept and can be restored the same way.
 */

/** Three admins of the file's app: the tests take turns editing and publishing its one policy. */
const policiesTest = appTest
  .extend('ada', { scope: 'file' }, ({ t }) => t.signIn('admin'))
  .extend('bo', { scope: 'file' }, ({ t, ada: _ada }) => t.signIn('admin'))
  .extend('cy', { scope: 'file' }, ({ t, bo: _bo }) => t.signIn('admin'));

const URL = '/api/console/policies/transactions/';
const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const twoForBig: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Transfers of $10,000 or more',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

async function state(ada: StaffSession, kind = 'transactions'): Promise<PolicyState> {
  const res = await ada.json(`/api/console/policies/${kind}/`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return PolicyState.parse(res.body);
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const error = ApiErrorBody.parse(res.body);
  expect(error.code).toBe(code);
  return error;
}

async function discardAnyDraft(ada: StaffSession) {
  const res = await ada.json(`${URL}draft/`, send('DELETE'));
  expect([200, 404]).toContain(res.status);
}

describe('approval policy versions', () => {
  policiesTest(
    "a fresh console runs the built-in default, today's rule, as version 0",
    async ({ ada }) => {
      const { active, draft, history } = await state(ada, 'accounts');
      expect(active).toMatchObject({ version: 0, status: 'ACTIVE', policy: DEFAULT_POLICY });
      expect(draft).toBeNull();
      expect(history).toEqual([]);
    },
  );

  policiesTest(
    'one admin drafts, the same admin may not publish, another publishes the revision reviewed',
    async ({ ada, bo }) => {
      const saved = await ada.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 }));
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const draft = PolicyVersion.parse(saved.body);
      expect(draft).toMatchObject({ status: 'DRAFT', revision: 1, basedOn: 0, version: null });
      expect(draft.editors.map((e) => e.id)).toEqual([ada.member.id]);

      expectError(
        await ada.json(`${URL}draft/publish/`, send('POST', { revision: 1 })),
        403,
        'FOUR_EYES',
      );
      const published = await bo.json(`${URL}draft/publish/`, send('POST', { revision: 1 }));
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      const now = PolicyState.parse(published.body);
      expect(now.active).toMatchObject({ version: 1, status: 'ACTIVE', policy: twoForBig });
      expect(now.active.publishedBy?.id).toBe(bo.member.id);
      expect(now.draft).toBeNull();
      expect(now.history.map((v) => v.version)).toEqual([0]);

      const log = await ada.json('/api/console/audit/?entityId=transactions');
      const rows = AuditListResponse.parse(log.body).results.map((r) => `${r.action} ${r.outcome}`);
      expect(rows).toEqual(
        expect.arrayContaining([
          'policy.draft success',
          'policy.publish denied',
          'policy.publish success',
        ]),
      );
    },
  );

  policiesTest(
    'the publish is audited with each rule in one line, its categories named; a Transfer rule catches a token transfer',
    async ({ ada, bo }) => {
      await discardAnyDraft(ada);
      const policy: Policy = {
        rules: [
          {
            ...twoForBig.rules[0]!,
            id: 'any',
            name: 'Large',
            match: { amountUsdAtLeast: '10000' },
          },
          {
            id: 'out',
            name: 'Outflows',
            match: { categories: ['TRANSFER', 'OFF_RAMP'] },
            outcome: { action: 'BLOCK' },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      };
      const saved = await ada.json(`${URL}draft/`, send('PUT', { policy, revision: 0 }));
      const { revision } = PolicyVersion.parse(saved.body);
      const published = await bo.json(`${URL}draft/publish/`, send('POST', { revision }));
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      const log = await ada.json('/api/console/audit/?entityId=transactions&limit=100');
      const row = AuditListResponse.parse(log.body).results.find(
        (r) => r.action === 'policy.publish' && r.outcome === 'success',
      );
      expect(row?.summary).toContain(
        '1. Large: Any category ≥ $10,000.00 → 2 approvals from approvers or admins; 2. Outflows: Transfer or Off-ramp → Blocked; otherwise 1 approval from anyone who may approve',
      );

      const asked = await ada.json(
        `${URL}preview/`,
        send('POST', {
          subOrgId: null,
          category: 'TOKEN_TRANSFER',
          amountUsd: '5',
          initiatorKind: 'initiator',
        }),
      );
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(PolicyPreviewResponse.parse(asked.body).requirement.ruleId).toBe('out');
    },
  );

  policiesTest(
    'a second editor may not publish either; a third admin may',
    async ({ ada, bo, cy }) => {
      await discardAnyDraft(ada);
      await ada.json(`${URL}draft/`, send('PUT', { policy: DEFAULT_POLICY, revision: 0 }));
      const edited = await bo.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 1 }));
      expect(PolicyVersion.parse(edited.body).editors.map((e) => e.id)).toEqual([
        ada.member.id,
        bo.member.id,
      ]);
      expectError(
        await bo.json(`${URL}draft/publish/`, send('POST', { revision: 2 })),
        403,
        'FOUR_EYES',
      );
      expect((await cy.json(`${URL}draft/publish/`, send('POST', { revision: 2 }))).status).toBe(
        200,
      );
    },
  );

  policiesTest(
    'refuses a save or a publish against a revision that has since changed',
    async ({ ada, bo }) => {
      await discardAnyDraft(ada);
      await ada.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 }));
      await ada.json(`${URL}draft/`, send('PUT', { policy: DEFAULT_POLICY, revision: 1 }));
      const stale = expectError(
        await bo.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 1 })),
        409,
        'POLICY_DRAFT_CHANGED',
      );
      expect(stale.fields?.[0]?.field).toBe('revision');
      // Bo reviewed revision 1; the draft is now at 2: publishing what was not read is refused.
      expectError(
        await bo.json(`${URL}draft/publish/`, send('POST', { revision: 1 })),
        409,
        'POLICY_DRAFT_CHANGED',
      );
      expectError(
        await bo.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 })),
        409,
        'POLICY_DRAFT_CHANGED',
      );
    },
  );

  policiesTest(
    'two admins beginning a draft at once: one draft, the other told',
    async ({ ada, bo }) => {
      await discardAnyDraft(ada);
      const [a, b] = await Promise.all([
        ada.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 })),
        bo.json(`${URL}draft/`, send('PUT', { policy: DEFAULT_POLICY, revision: 0 })),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect((await state(ada)).draft?.revision).toBe(1);
    },
  );

  policiesTest('two admins publishing at once: one version, not two', async ({ ada, bo, cy }) => {
    await discardAnyDraft(ada);
    await ada.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 }));
    const before = (await state(ada)).active.version ?? 0;
    const [a, b] = await Promise.all([
      bo.json(`${URL}draft/publish/`, send('POST', { revision: 1 })),
      cy.json(`${URL}draft/publish/`, send('POST', { revision: 1 })),
    ]);
    // The other is refused: 404 when the first had published (the draft is gone), 409 when
    // both reached the approval core at once (the item is being decided). Never a second version.
    const [won, lost] = [a, b].sort((x, y) => x.status - y.status);
    expect(won?.status, JSON.stringify(won?.body)).toBe(200);
    expect([404, 409], JSON.stringify(lost?.body)).toContain(lost?.status);
    expect((await state(ada)).active.version).toBe(before + 1);
  });

  policiesTest(
    'restores an earlier version as a draft, published like any other',
    async ({ ada, bo }) => {
      await discardAnyDraft(ada);
      const res = await ada.json(`${URL}versions/0/restore/`, send('POST'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(PolicyVersion.parse(res.body)).toMatchObject({ basedOn: 0, policy: DEFAULT_POLICY });
      expectError(
        await ada.json(`${URL}versions/0/restore/`, send('POST')),
        409,
        'POLICY_DRAFT_CHANGED',
      );
      const published = await bo.json(`${URL}draft/publish/`, send('POST', { revision: 1 }));
      expect(PolicyState.parse(published.body).active.policy).toEqual(DEFAULT_POLICY);
      expectError(await ada.json(`${URL}versions/999/restore/`, send('POST')), 404, 'NOT_FOUND');
    },
  );

  policiesTest(
    'a bad policy is refused naming the field and the rule, and nothing is saved',
    async ({ ada }) => {
      await discardAnyDraft(ada);
      const bad = {
        ...twoForBig,
        rules: [
          { ...twoForBig.rules[0], outcome: { ...twoForBig.rules[0]!.outcome, approvals: 0 } },
        ],
      };
      const error = expectError(
        await ada.json(`${URL}draft/`, send('PUT', { policy: bad, revision: 0 })),
        400,
        'VALIDATION_ERROR',
      );
      expect(error.fields).toContainEqual({
        field: 'policy.rules.0.outcome.approvals',
        message: 'at least one approval',
      });
      expect((await state(ada)).draft).toBeNull();
    },
  );

  policiesTest(
    'only an admin of every sub-organization edits; every member reads',
    async ({ t, ada }) => {
      const scoped = await t.signIn('admin', { subOrgIds: ['so-a'] });
      expectError(
        await scoped.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 })),
        403,
        'OUTSIDE_ADMIN_SCOPE',
      );
      const viewer = await t.signIn('viewer');
      expect((await viewer.json(URL)).status).toBe(200);
      expectError(
        await viewer.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 })),
        403,
        'FORBIDDEN_ROLE',
      );
      expectError(await ada.json('/api/console/policies/everything/'), 404, 'NOT_FOUND');
    },
  );

  policiesTest(
    'answers "what would this need?" from the active policy or the draft',
    async ({ t, ada }) => {
      await discardAnyDraft(ada);
      await ada.json(`${URL}draft/`, send('PUT', { policy: twoForBig, revision: 0 }));
      const facts = {
        subOrgId: null,
        category: 'TRANSFER',
        amountUsd: '50000',
        destinationKind: 'EXTERNAL_ADDRESS',
        initiatorKind: 'initiator',
      };
      const viewer = await t.signIn('viewer');
      const onDraft = await viewer.json(`${URL}preview/`, send('POST', { ...facts, draft: true }));
      expect(PolicyPreviewResponse.parse(onDraft.body)).toMatchObject({
        requirement: { ruleId: 'big' },
        summary: '2 approvals from approvers or admins',
      });
      const small = await viewer.json(
        `${URL}preview/`,
        send('POST', { ...facts, amountUsd: '500' }),
      );
      expect(PolicyPreviewResponse.parse(small.body).requirement.ruleId).toBeNull();
    },
  );
});
