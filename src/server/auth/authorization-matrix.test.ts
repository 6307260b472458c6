import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { roleAllows, STAFF_ROLES, type Permission, type StaffRole } from '#contract/auth.ts';
import { paths } from '#contract/paths.ts';
import { vaults } from '../db/schema/sandbox.ts';
import type { AppEnv } from '../http/app-env.ts';
import { declaredRules, READ, rule, type DeclaredRoute } from '../http/route-rule.ts';
import {
  createContact,
  createEther,
  createSubOrg,
  createTransaction,
  createVault,
} from '../test/fixtures.ts';
import { endpoint, endpointKey } from '#contract/endpoint.ts';
import { ENDPOINTS } from '#contract/endpoints/index.ts';
import { VaultBalances } from '#contract/reference.ts';
import { CALLS, derivedCall, OVERRIDES, type Target } from '../test/matrix-calls.ts';
import { proposeBankAccount } from '../test/staff-approvals.ts';
import { createApiUser } from '../custody/sandbox/api-users.store.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * The authorization matrix: every role × every route × a target inside and
 * outside the member's sub-organization, each cell asserted. The rows are
 * known when the file is collected, before any app exists: the declared
 * endpoints held to a staff permission (contract/endpoints/); the first
 * describe proves they are the app's own routes, each with the permission its
 * mounted rule declares (`http/route-rule.ts`), and that no route goes without
 * a rule. How to call each one is derived from its declaration
 * (`test/matrix-calls.ts`), with a few overrides where a valid body is needed.
 * Members are restricted to sub-org A; "out" targets sub-org B's data.
 */

const routeKey = (r: Pick<DeclaredRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;
const isApi = (path: string) => path.startsWith('/api/') || path.startsWith('/auth/');

/** The /api and /auth routes of an app that declare no rule. */
function routesWithoutRule(app: Hono<AppEnv>): string[] {
  return declaredRules(app)
    .filter((r) => isApi(r.path) && !r.rule)
    .map(routeKey);
}

const apiRoutes = (app: Hono<AppEnv>) => declaredRules(app).filter((r) => isApi(r.path));
/** The app's routes held to a staff permission, as `METHOD /path/ permission`. */
const mountedStaffRoutes = (app: Hono<AppEnv>) =>
  apiRoutes(app).flatMap((r) =>
    r.rule && r.rule.permission !== 'public' ? [`${routeKey(r)} ${r.rule.permission}`] : [],
  );
const staffEndpoints = ENDPOINTS.flatMap((e) =>
  e.permission === 'public'
    ? []
    : [{ method: e.method, path: e.path, permission: e.permission as Permission }],
);

/**
 * The app (with Ether, so that an allowed create reaches the engine and
 * succeeds, not just passes auth), the two targets, a member of each role
 * restricted to the inside target's sub-org, and the staff member the staff
 * routes act on (`viewer`, of all sub-orgs).
 */
const matrixTest = appTestWith({}, (t) => createEther(t.db))
  .extend('targets', { scope: 'file' }, async ({ t }): Promise<Record<'in' | 'out', Target>> => {
    const inside = await makeTarget(t, 'Inside');
    const [homeVault] = await t.db.select().from(vaults).where(eq(vaults.id, inside.vaultId));
    return { in: inside, out: await makeTarget(t, 'Outside', homeVault) };
  })
  .extend('members', { scope: 'file' }, async ({ t, targets }) => {
    const members = {} as Record<StaffRole, StaffSession>;
    for (const role of STAFF_ROLES)
      members[role] = await t.signIn(role, { subOrgIds: [targets.in.subOrgId] });
    return members;
  });

describe('every route declares its rule', () => {
  matrixTest('no /api or /auth route is without one', ({ t }) => {
    expect(routesWithoutRule(t.app)).toEqual([]);
  });

  it('would catch a route added without one', () => {
    const app = new Hono<AppEnv>()
      .get('/api/console/ruled/', rule(READ), (c) => c.json({}))
      .post('/api/console/forgotten/', (c) => c.json({}));
    expect(routesWithoutRule(app)).toEqual(['POST /api/console/forgotten/']);
  });

  matrixTest(
    'only the /auth routes and the signed webhook receiver are open without a session',
    ({ t }) => {
      const open = apiRoutes(t.app)
        .filter((r) => r.rule?.permission === 'public')
        .map((r) => r.path);
      expect(open.length).toBeGreaterThan(0);
      // The receiver checks its X-Signature instead (capabilities/webhooks/receiver.routes.ts).
      for (const path of open) expect(path).toMatch(/^(\/auth\/|\/api\/webhooks\/custody\/$)/);
    },
  );

  matrixTest('the matrix calls every route held to a permission, and nothing else', ({ t }) => {
    const rows = staffEndpoints.map((r) => `${routeKey(r)} ${r.permission}`);
    expect(mountedStaffRoutes(t.app).sort()).toEqual(rows.sort());
    expect(Object.keys(CALLS).sort()).toEqual(staffEndpoints.map(routeKey).sort());
  });

  it('derives the row of an endpoint added to the contract, without a line here', () => {
    const added = endpoint({
      method: 'GET',
      path: '/api/external/vaults/:vaultId/held/',
      summary: 'An endpoint only this test declares.',
      action: 'read',
      permission: 'read',
      audit: false,
      resource: 'vault',
      answer: VaultBalances,
    });
    const call = derivedCall(added);
    expect(call).toMatchObject({
      name: 'GET /api/external/vaults/:vaultId/held/',
      scope: 'entity',
    });
    expect(call.url({ vaultId: 'v 1' } as Target, { staffId: 's' })).toBe(
      '/api/external/vaults/v%201/held/',
    );
  });

  it('overrides only declared endpoints', () => {
    const declared = new Set(ENDPOINTS.map(endpointKey));
    for (const key of Object.keys(OVERRIDES)) expect(declared, key).toContain(key);
  });
});

/** `homeVault`: the in-scope vault that pays this target's contact (its own for the first). */
async function makeTarget(
  t: TestApp,
  name: string,
  homeVault?: { id: string; subOrgId: string | null },
): Promise<Target> {
  const subOrg = await createSubOrg(t.db, t.orgId, name);
  const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: subOrg.id }, [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
  ]);
  const contact = await createContact(t.db, { orgId: t.orgId, subOrgId: subOrg.id });
  const transaction = await createTransaction(t.db, {
    orgId: t.orgId,
    subOrgId: subOrg.id,
    vaultId: vault.id,
  });
  const payer = homeVault ?? vault;
  // SUBMITTED on Ethereum: replaceable, so only the scope can refuse it.
  const payment = await createTransaction(t.db, {
    orgId: t.orgId,
    subOrgId: payer.subOrgId,
    vaultId: payer.id,
    status: 'SUBMITTED',
    nonce: 7,
    feeTier: 'LOW',
    source: { type: 'VAULT', id: payer.id, subOrgId: payer.subOrgId ?? undefined },
    destination: { type: 'CONTACT', id: contact.id, subOrgId: subOrg.id },
  });
  // Through the API, so it comes with a change request to read the approval message of.
  const apiUser = await createApiUser(t.db, {
    orgId: t.orgId,
    name: `${name} bot`,
    now: t.authClock.now(),
    subOrgIds: [subOrg.id],
  });
  const bankAccountId = await proposeBankAccount(t.admin, subOrg.id, {
    accountName: name,
    accountNumber: '11112222',
  });
  const approval = await t.admin.json(`${paths.approvalMessage()}?entityId=${bankAccountId}`);
  const { approvalId } = approval.body as { approvalId: string };
  return {
    approvalId,
    subOrgId: subOrg.id,
    transactionId: transaction.id,
    bankAccountId,
    vaultId: vault.id,
    contactId: contact.id,
    paymentToContactId: payment.id,
    apiUserId: apiUser.id,
  };
}

const cells: string[] = [];

describe('authorization matrix: role × endpoint × scope', () => {
  const endpoints = staffEndpoints.flatMap((route) =>
    (CALLS[routeKey(route)] ?? []).map((call) => ({
      ...call,
      method: route.method,
      permission: route.permission,
    })),
  );
  for (const endpoint of endpoints) {
    for (const role of STAFF_ROLES) {
      for (const where of ['in', 'out'] as const) {
        const allowed = roleAllows(role, endpoint.permission);
        const expectation = !allowed
          ? '403 FORBIDDEN_ROLE'
          : endpoint.scope === 'unrestricted'
            ? '403 OUTSIDE_ADMIN_SCOPE'
            : where === 'out' && endpoint.scope === 'granted'
              ? '403 OUTSIDE_ADMIN_SCOPE'
              : where === 'out' && (endpoint.scope === 'filter' || endpoint.scope === 'entity')
                ? '404'
                : 'allowed';
        cells.push(`${endpoint.name}/${role}/${where}`);
        matrixTest(
          `${endpoint.name} (${endpoint.permission}) · ${role} · ${where} of scope → ${expectation}`,
          async ({ targets, members, viewer }) => {
            const target = targets[where];
            const res = await members[role].request(
              endpoint.url(target, { staffId: viewer.member.id }),
              {
                method: endpoint.method,
                headers: { 'Content-Type': 'application/json' },
                ...(endpoint.body
                  ? { body: JSON.stringify(endpoint.body(target, targets.in)) }
                  : {}),
              },
            );
            // An event stream (GET /api/console/events) never ends by itself: its status is the answer.
            const streamed = res.headers.get('content-type')?.startsWith('text/event-stream');
            if (streamed) await res.body?.cancel();
            const body = (streamed ? null : await res.json().catch(() => null)) as
              Record<string, unknown> | unknown[] | null;
            const detail = `${res.status} ${JSON.stringify(body).slice(0, 300)}`;
            if (!allowed) {
              expect(res.status, detail).toBe(403);
              expect(body, detail).toMatchObject({ code: 'FORBIDDEN_ROLE' });
              expect(String((body as { message?: unknown }).message)).toContain(
                `the ${role} role cannot`,
              );
              return;
            }
            if (endpoint.scope === 'unrestricted') {
              // The matrix's members are restricted to sub-org A.
              expect(res.status, detail).toBe(403);
              expect(body, detail).toMatchObject({ code: 'OUTSIDE_ADMIN_SCOPE' });
              return;
            }
            if (endpoint.scope === 'granted' && where === 'out') {
              expect(res.status, detail).toBe(403);
              expect(body, detail).toMatchObject({ code: 'OUTSIDE_ADMIN_SCOPE' });
              return;
            }
            expect([401, 403], detail).not.toContain(res.status);
            switch (endpoint.scope) {
              case 'filter':
              case 'entity':
                expect(res.status, detail).toBe(where === 'in' ? 200 : 404);
                break;
              case 'listed': {
                expect(res.status, detail).toBe(200);
                const ids = ((body as { results: Array<{ id?: string }> }).results ?? []).map(
                  (r) => r.id,
                );
                const id = endpoint.listedId?.(target);
                if (where === 'in') expect(ids, detail).toContain(id);
                else expect(ids, detail).not.toContain(id);
                break;
              }
              case 'none':
                expect(res.status, detail).toBeLessThan(500);
                break;
              case 'granted':
                expect(res.status, detail).toBeGreaterThanOrEqual(200);
                expect(res.status, detail).toBeLessThan(300);
                break;
              case 'create':
                if (where === 'in') expect(res.status, detail).not.toBe(404);
                else expect(res.status, detail).toBe(404);
                expect(res.status, detail).toBeLessThan(500);
                break;
            }
          },
        );
      }
    }
  }

  it('has every cell', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(staffEndpoints.length);
    expect(cells).toHaveLength(endpoints.length * STAFF_ROLES.length * 2);
    console.info(`authorization matrix: ${cells.length} cells`);
  });
});

describe('scope on lists without a filter', () => {
  matrixTest(
    'limits a restricted member to their sub-orgs, one or several',
    async ({ t, targets, members }) => {
      const one = await members.viewer.json(`${paths.transactions()}?limit=100`);
      const ids = (one.body as { results: Array<{ subOrgId?: string }> }).results.map(
        (r) => r.subOrgId,
      );
      expect(new Set(ids)).toEqual(new Set([targets.in.subOrgId]));

      const both = await t.signIn('viewer', {
        subOrgIds: [targets.in.subOrgId, targets.out.subOrgId],
      });
      const page = await both.json(`${paths.bankAccounts()}?limit=100`);
      const subOrgs = (page.body as { results: Array<{ subOrgId?: string }> }).results.map(
        (r) => r.subOrgId,
      );
      expect(new Set(subOrgs)).toEqual(new Set([targets.in.subOrgId, targets.out.subOrgId]));
    },
  );
});
