import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  isSecondFactorChallenge,
  LoginAnswer,
  StaffChangeAnswer,
  StaffProposal,
  StaffProposalList,
  type StaffRole,
} from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { DEFAULT_POLICY } from '#contract/policies.ts';
import { setFactor, getFactor, isEnrolled } from '../auth/second-factor.store.ts';
import { findStaffByEmail, getStaff } from '../auth/staff.store.ts';
import { notCounted } from '../capabilities/policies/evaluate.ts';
import { POLICY_PUBLISH } from '../capabilities/policies/publish/policy-publish.ts';
import { initiatorOf } from '../capabilities/policies/votes.store.ts';
import { approvalRequirements, auditLog, staffProposals } from '../db/schema/console.ts';
import { appTestWith } from '../test/app-test.ts';
import { secondServer } from '../test/second-server.ts';
import { TEST_ORIGIN, type StaffSession } from '../test/staff-session.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * Four eyes on staff management: creating a member with approve or admin
 * rights, raising a role, widening a scope and resetting another member's
 * second factor are proposals another admin approves, never the proposer,
 * the member changed, or an account linked to the proposer's; a member made
 * in the console chooses their own password with a one-time set-up code; and
 * a change of role or scope ends the member's sessions.
 */

const appTest = appTestWith().extend('b', { scope: 'file' }, async ({ t }, { onCleanup }) => {
  const server = secondServer(t);
  onCleanup(() => server.close());
  return server.app;
});

// The app is made before the first test, under the set-up limit: made by the first test,
// it took most of that test's 60 s on a loaded machine.
appTest.beforeAll(async ({ t: _t }) => {});

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

let counter = 0;
function newMember(role: StaffRole, subOrgIds: string[] | null = null) {
  counter += 1;
  return {
    email: `proposed-${counter}-${process.pid}@bank.test`,
    name: `Proposed ${counter}`,
    role,
    subOrgIds,
  };
}

async function call(as: StaffSession, url: string, init?: RequestInit) {
  return as.json(url, init);
}

function expectRefused(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(ApiErrorBody.parse(res.body).code).toBe(code);
}

async function decide(as: StaffSession, proposalId: string, action: 'approve' | 'decline') {
  return call(as, `/api/console/staff/proposals/${proposalId}/decision/`, send('POST', { action }));
}

async function proposeCreate(as: StaffSession, role: StaffRole, subOrgIds: string[] | null = null) {
  const body = newMember(role, subOrgIds);
  const res = await call(as, '/api/console/staff/', send('POST', body));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { body, answer: StaffChangeAnswer.parse(res.body) };
}

async function proposeUpdate(as: StaffSession, staffId: string, changes: unknown) {
  const res = await call(as, `/api/console/staff/${staffId}/`, send('PATCH', changes));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return StaffChangeAnswer.parse(res.body);
}

async function proposeReset(as: StaffSession, staffId: string) {
  const res = await call(as, `/api/console/staff/${staffId}/second-factor-reset/`, send('POST'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return StaffChangeAnswer.parse(res.body);
}

function anonymousPost(t: TestApp, url: string, body: unknown) {
  return t.getJson(url, {
    ...send('POST', body),
    headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN, cookie: '' },
  });
}

const PASSWORD = 'chosen by the member';

/** One kind of staff change, proposed by `proposer`, and how to see it applied. */
interface Kind {
  name: string;
  propose(
    t: TestApp,
    proposer: StaffSession,
  ): Promise<{ id: string; applied: () => Promise<boolean> }>;
}

const KINDS: Kind[] = [
  {
    name: 'creating an approver',
    async propose(t, proposer) {
      const { body, answer } = await proposeCreate(proposer, 'approver');
      return {
        id: answer.proposal!.id,
        applied: async () => (await findStaffByEmail(t.db, body.email)) !== undefined,
      };
    },
  },
  {
    name: 'creating an admin',
    async propose(t, proposer) {
      const { body, answer } = await proposeCreate(proposer, 'admin');
      return {
        id: answer.proposal!.id,
        applied: async () => (await findStaffByEmail(t.db, body.email)) !== undefined,
      };
    },
  },
  {
    name: 'raising an initiator to approver',
    async propose(t, proposer) {
      const member = await t.signIn('initiator');
      const answer = await proposeUpdate(proposer, member.member.id, { role: 'approver' });
      return {
        id: answer.proposal!.id,
        applied: async () => (await getStaff(t.db, member.member.id))?.role === 'approver',
      };
    },
  },
  {
    name: 'widening a sub-organization scope',
    async propose(t, proposer) {
      const member = await t.signIn('approver', { subOrgIds: ['so-a'] });
      const answer = await proposeUpdate(proposer, member.member.id, {
        subOrgIds: ['so-a', 'so-b'],
      });
      return {
        id: answer.proposal!.id,
        applied: async () =>
          (await getStaff(t.db, member.member.id))?.subOrgIds?.includes('so-b') ?? false,
      };
    },
  },
  {
    name: "resetting another member's second factor",
    async propose(t, proposer) {
      const member = await t.signIn('approver');
      await setFactor(t.db, member.member.id, 'JBSWY3DPEHPK3PXP', 1, t.clock.now(), {
        onlyIfNone: false,
      });
      const answer = await proposeReset(proposer, member.member.id);
      return {
        id: answer.proposal!.id,
        applied: async () => !isEnrolled(await getFactor(t.db, member.member.id)),
      };
    },
  },
];

describe.each(KINDS)('$name', (kind) => {
  appTest('waits for another admin: nothing changes until one approves', async ({ t }) => {
    const proposer = await t.signIn('admin');
    const other = await t.signIn('admin');
    const proposal = await kind.propose(t, proposer);
    expect(await proposal.applied()).toBe(false);
    const listed = StaffProposalList.parse(
      (await call(other, '/api/console/staff/proposals/')).body,
    );
    expect(listed.results.map((p) => p.id)).toContain(proposal.id);

    const approved = await decide(other, proposal.id, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(StaffProposal.parse(approved.body)).toMatchObject({
      status: 'APPROVED',
      decidedBy: { id: other.member.id },
    });
    expect(await proposal.applied()).toBe(true);
    // Decided once: a second decision is refused.
    expectRefused(await decide(other, proposal.id, 'approve'), 409, 'ALREADY_DECIDED');
  });

  appTest('is refused to its proposer and to an account linked to theirs', async ({ t }) => {
    const proposer = await t.signIn('admin');
    // An admin the proposer created (and might sign in as), and the admin who created the proposer.
    const theirs = await t.signIn('admin', { createdBy: proposer.member.id });
    const maker = await t.signIn('admin');
    const made = await t.signIn('admin', { createdBy: maker.member.id });
    for (const [as, who] of [
      [proposer, theirs],
      [made, maker],
    ] as const) {
      const proposal = await kind.propose(t, as);
      expectRefused(await decide(as, proposal.id, 'approve'), 403, 'FOUR_EYES');
      expectRefused(await decide(as, proposal.id, 'decline'), 403, 'FOUR_EYES');
      const linked = await decide(who, proposal.id, 'approve');
      expectRefused(linked, 403, 'LINKED_ACCOUNTS');
      expect(ApiErrorBody.parse(linked.body).message).toMatch(/linked/);
      expect(await proposal.applied()).toBe(false);
      // Declined by an admin linked to neither, it never applies.
      const other = await t.signIn('admin');
      expect((await decide(other, proposal.id, 'decline')).status).toBe(200);
      expect(await proposal.applied()).toBe(false);
    }
  });

  appTest('is applied once when two servers approve at the same time', async ({ t, b }) => {
    const proposer = await t.signIn('admin');
    const one = await t.signIn('admin');
    const two = await t.signIn('admin');
    const proposal = await kind.propose(t, proposer);
    const url = `/api/console/staff/proposals/${proposal.id}/decision/`;
    const answers = await Promise.all([
      one.request(url, send('POST', { action: 'approve' })),
      Promise.resolve(b.request(url, two.init(send('POST', { action: 'approve' })))),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await proposal.applied()).toBe(true);
    const rows = await t.db.select().from(staffProposals).where(eq(staffProposals.id, proposal.id));
    expect(rows[0]?.status).toBe('APPROVED');
  });
});

describe('a member made in the console', () => {
  appTest('chooses their own password with a one-time set-up code', async ({ t }) => {
    const admin = await t.signIn('admin');
    const { body, answer } = await proposeCreate(admin, 'initiator');
    expect(answer.outcome).toBe('applied');
    const token = answer.setup!.token;
    // No password the creator knows signs in.
    for (const password of ['', 'twelve chars ok', token]) {
      const res = await anonymousPost(t, '/auth/login', {
        email: body.email,
        password: password || 'x',
      });
      expect(res.status).toBe(401);
    }
    const stored = await findStaffByEmail(t.db, body.email);
    expect(stored?.setupHash).not.toContain(token);

    const setUp = await anonymousPost(t, '/auth/setup', { token, password: PASSWORD });
    expect(setUp, JSON.stringify(setUp.body)).toMatchObject({
      status: 200,
      body: { email: body.email },
    });
    const signedIn = await anonymousPost(t, '/auth/login', {
      email: body.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    // Once only.
    const again = await anonymousPost(t, '/auth/setup', { token, password: 'another password' });
    expectRefused(again, 400, 'SETUP_INVALID');
  });

  appTest(
    'as an admin: the code works only once approved, then asks for a second factor',
    async ({ t }) => {
      const admin = await t.signIn('admin');
      const other = await t.signIn('admin');
      const { body, answer } = await proposeCreate(admin, 'admin');
      expect(answer).toMatchObject({
        outcome: 'proposed',
        member: null,
        setup: { expiresAt: null },
      });
      const token = answer.setup!.token;
      const early = await anonymousPost(t, '/auth/setup', { token, password: PASSWORD });
      expectRefused(early, 400, 'SETUP_INVALID');
      expect(ApiErrorBody.parse(early.body).message).toMatch(/approves/);

      expect((await decide(other, answer.proposal!.id, 'approve')).status).toBe(200);
      const created = await findStaffByEmail(t.db, body.email);
      expect(created).toMatchObject({ role: 'admin', createdBy: admin.member.id });
      // Until they set theirs, a password nobody knows, hashed at the full cost as any other.
      expect(created?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect((await anonymousPost(t, '/auth/setup', { token, password: PASSWORD })).status).toBe(
        200,
      );
      const signIn = await anonymousPost(t, '/auth/login', {
        email: body.email,
        password: PASSWORD,
      });
      const login = LoginAnswer.parse(signIn.body);
      expect(isSecondFactorChallenge(login) && login.secondFactor).toBe('enrol');
    },
  );

  appTest('a set-up code expires', async ({ t }) => {
    const admin = await t.signIn('admin');
    const { answer } = await proposeCreate(admin, 'viewer');
    t.clock.advance(72 * 3600_000 + 1);
    const late = await anonymousPost(t, '/auth/setup', {
      token: answer.setup!.token,
      password: PASSWORD,
    });
    expectRefused(late, 400, 'SETUP_INVALID');
  });

  appTest(
    'the creator holding the code gets only a linked account: its publish of their draft is refused',
    async ({ t }) => {
      const creator = await t.signIn('admin');
      const other = await t.signIn('admin');
      const { body, answer } = await proposeCreate(creator, 'admin');
      await decide(other, answer.proposal!.id, 'approve');
      const second = (await findStaffByEmail(t.db, body.email))!;
      // The creator drafts; the publish waits on the approval core under the rule frozen on it.
      const saved = await creator.json(
        '/api/console/policies/transactions/draft/',
        send('PUT', { policy: DEFAULT_POLICY, revision: 0 }),
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const [held] = await t.db
        .select()
        .from(approvalRequirements)
        .where(
          and(
            eq(approvalRequirements.entityType, POLICY_PUBLISH),
            isNull(approvalRequirements.settled),
          ),
        );
      if (!held) throw new Error('the draft is not held for publishing');
      const asActor = (m: NonNullable<Awaited<ReturnType<typeof getStaff>>>) =>
        ({
          kind: 'staff',
          id: m.id,
          role: m.role,
          subOrgIds: m.subOrgIds,
          createdBy: m.createdBy,
        }) as const;
      expect(notCounted(held.requirement, initiatorOf(held), asActor(second))).toMatchObject({
        why: 'LINKED',
        to: { id: creator.member.id },
      });
      // An admin linked to no editor counts.
      const stranger = (await getStaff(t.db, other.member.id))!;
      expect(notCounted(held.requirement, initiatorOf(held), asActor(stranger))).toBeNull();
    },
  );
});

describe('what may be done at once', () => {
  appTest('lowering a role, narrowing a scope, renaming: applied at once', async ({ t }) => {
    const admin = await t.signIn('admin');
    const member = await t.signIn('approver', { subOrgIds: ['so-a', 'so-b'] });
    for (const changes of [{ name: 'Renamed' }, { subOrgIds: ['so-a'] }, { role: 'viewer' }]) {
      const answer = await proposeUpdate(admin, member.member.id, changes);
      expect(answer.outcome).toBe('applied');
    }
    expect(await getStaff(t.db, member.member.id)).toMatchObject({
      name: 'Renamed',
      subOrgIds: ['so-a'],
      role: 'viewer',
    });
  });

  appTest('a restricted admin cannot approve the widening of their own scope', async ({ t }) => {
    const admin = await t.signIn('admin');
    const scoped = await t.signIn('admin', { subOrgIds: ['so-a'] });
    const answer = await proposeUpdate(admin, scoped.member.id, { subOrgIds: null });
    // A scope beyond theirs is not theirs to see, let alone decide.
    expectRefused(await decide(scoped, answer.proposal!.id, 'approve'), 404, 'NOT_FOUND');
    expect((await getStaff(t.db, scoped.member.id))?.subOrgIds).toEqual(['so-a']);
  });
});

describe('a change of role or scope', () => {
  appTest("ends the member's sessions: a promoted initiator signs in again", async ({ t }) => {
    const admin = await t.signIn('admin');
    const other = await t.signIn('admin');
    const member = await t.signIn('initiator');
    expect((await member.request('/auth/session')).status).toBe(200);
    const answer = await proposeUpdate(admin, member.member.id, { role: 'approver' });
    // Proposed only: the session still holds the initiator role.
    expect((await member.request('/auth/session')).status).toBe(200);
    await decide(other, answer.proposal!.id, 'approve');
    expect((await member.request('/auth/session')).status).toBe(401);
    expect((await member.request('/api/console/approvals/')).status).toBe(401);
  });

  appTest("ends the member's sessions when applied at once too", async ({ t }) => {
    const admin = await t.signIn('admin');
    for (const changes of [{ role: 'viewer' }, { subOrgIds: ['so-a'] }]) {
      const member = await t.signIn('approver', { subOrgIds: ['so-a', 'so-b'] });
      await proposeUpdate(admin, member.member.id, changes);
      expect((await member.request('/auth/session')).status).toBe(401);
    }
    // A new name is not a change of what they may do.
    const named = await t.signIn('approver');
    await proposeUpdate(admin, named.member.id, { name: 'New Name' });
    expect((await named.request('/auth/session')).status).toBe(200);
  });

  appTest('leaves proposals, decisions and refusals in the audit log', async ({ t }) => {
    const admin = await t.signIn('admin');
    const linked = await t.signIn('admin', { createdBy: admin.member.id });
    const { answer } = await proposeCreate(admin, 'approver');
    await decide(linked, answer.proposal!.id, 'approve');
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, answer.proposal!.id));
    expect(rows.map((r) => [r.action, r.outcome])).toEqual(
      expect.arrayContaining([
        ['staff.create', 'success'],
        ['staff.proposal.approve', 'denied'],
      ]),
    );
  });
});
