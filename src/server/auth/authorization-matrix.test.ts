import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAllows, STAFF_ROLES, type StaffRole } from '#contract/auth.ts';
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
import type { StaffSession } from '../test/staff-session.ts';
import { createTestApp } from '../test/test-app.ts';

/**
 * The authorization matrix: every role × every route × a target inside and
 * outside the member's sub-organization, each cell asserted. The rows are the
 * app's own routes and the permission each declares (`http/route-rule.ts`);
 * how to call each one is derived from its declaration (contract/endpoints/,
 * `test/matrix-calls.ts`), with a few overrides where a valid body is needed.
 * Members are restricted to sub-org A; "out" targets sub-org B's data.
 */

const t = await createTestApp();
const routeKey = (r: Pick<DeclaredRoute, 'method' | 'path'>) => `${r.method} ${r.path}`;
const isApi = (path: string) => path.startsWith('/api/') || path.startsWith('/auth/');

/** The /api and /auth routes of an app that declare no rule. */
function routesWithoutRule(app: Hono<AppEnv>): string[] {
  return declaredRules(app)
    .filter((r) => isApi(r.path) && !r.rule)
    .map(routeKey);
}

const apiRoutes = declaredRules(t.app).filter((r) => isApi(r.path));
const staffRoutes = apiRoutes.flatMap((r) =>
  r.rule && r.rule.permission !== 'public' ? [{ ...r, permission: r.rule.permission }] : [],
);

describe('every route declares its rule', () => {
  it('no /api or /auth route is without one', () => {
    expect(routesWithoutRule(t.app)).toEqual([]);
  });

  it('would catch a route added without one', () => {
    const app = new Hono<AppEnv>()
      .get('/api/console/ruled/', rule(READ), (c) => c.json({}))
      .post('/api/console/forgotten/', (c) => c.json({}));
    expect(routesWithoutRule(app)).toEqual(['POST /api/console/forgotten/']);
  });

  it('only the /auth routes and the signed webhook receiver are open without a session', () => {
    const open = apiRoutes.filter((r) => r.rule?.permission === 'public').map((r) => r.path);
    expect(open.length).toBeGreaterThan(0);
    // The receiver checks its X-Signature instead (capabilities/webhooks/receiver.routes.ts).
    for (const path of open) expect(path).toMatch(/^(\/auth\/|\/api\/webhooks\/custody\/$)/);
  });

  it('the matrix calls every route held to a permission, and nothing else', () => {
    expect(Object.keys(CALLS).sort()).toEqual(staffRoutes.map(routeKey).sort());
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

const targets: Record<'in' | 'out', Target> = {} as Record<'in' | 'out', Target>;
const members = {} as Record<StaffRole, StaffSession>;
let victimId: string;

/** `homeVault`: the in-scope vault that pays this target's contact (its own for the first). */
async function makeTarget(
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
  };
}

beforeAll(async () => {
  // So that an allowed create reaches the engine and succeeds, not just passes auth.
  await createEther(t.db);
  targets.in = await makeTarget('Inside');
  const [homeVault] = await t.db.select().from(vaults).where(eq(vaults.id, targets.in.vaultId));
  targets.out = await makeTarget('Outside', homeVault);
  for (const role of STAFF_ROLES)
    members[role] = await t.signIn(role, { subOrgIds: [targets.in.subOrgId] });
  victimId = (await t.signIn('viewer')).member.id;
});
afterAll(() => t.close());

const cells: string[] = [];

describe('authorization matrix: role × endpoint × scope', () => {
  const endpoints = staffRoutes.flatMap((route) =>
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
            : where === 'out' && (endpoint.scope === 'filter' || endpoint.scope === 'entity')
              ? '404'
              : 'allowed';
        cells.push(`${endpoint.name}/${role}/${where}`);
        it(`${endpoint.name} (${endpoint.permission}) · ${role} · ${where} of scope → ${expectation}`, async () => {
          const target = targets[where];
          const res = await members[role].request(endpoint.url(target, { staffId: victimId }), {
            method: endpoint.method,
            headers: { 'Content-Type': 'application/json' },
            ...(endpoint.body ? { body: JSON.stringify(endpoint.body(target, targets.in)) } : {}),
          });
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
            case 'create':
              if (where === 'in') expect(res.status, detail).not.toBe(404);
              else expect(res.status, detail).toBe(404);
              expect(res.status, detail).toBeLessThan(500);
              break;
          }
        });
      }
    }
  }

  it('has every cell', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(staffRoutes.length);
    expect(cells).toHaveLength(endpoints.length * STAFF_ROLES.length * 2);
    console.info(`authorization matrix: ${cells.length} cells`);
  });
});

describe('scope on lists without a filter', () => {
  it('limits a restricted member to their sub-orgs, one or several', async () => {
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
  });
});
