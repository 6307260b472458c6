import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '../../contract/auth.ts';
import { paths } from '../../contract/paths.ts';
import { createContact, createSubOrg, createTransaction, createVault } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { eq } from 'drizzle-orm';
import { assets, vaults } from '../db/schema/sandbox.ts';
import { ENDPOINTS, type Endpoint, type Target } from './roles.matrix.endpoints.ts';
import { ROLE_PERMISSIONS } from './roles.ts';

/**
 * The authorization matrix (issue 4): every role × every endpoint × a target
 * inside and outside the member's sub-organization, each cell asserted.
 * Members are restricted to sub-org A; "out" targets sub-org B's data.
 * The rows live in roles.matrix.endpoints.ts.
 */

function roleMay(role: StaffRole, allowed: Endpoint['allowed']): boolean {
  return typeof allowed === 'string'
    ? ROLE_PERMISSIONS[role].includes(allowed)
    : allowed.includes(role);
}

let t: TestApp;
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
  const created = await t.admin.json(paths.bankAccounts(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      paymentMethod: 'US_ACH',
      subOrgId: subOrg.id,
      accountName: name,
      accountNumber: '11112222',
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
  });
  const bankAccount = created.body as { id: string };
  const approval = await t.admin.json(`${paths.approvalMessage()}?entityId=${bankAccount.id}`);
  const { approvalId } = approval.body as { approvalId: string };
  return {
    approvalId,
    subOrgId: subOrg.id,
    transactionId: transaction.id,
    bankAccountId: bankAccount.id,
    vaultId: vault.id,
    contactId: contact.id,
    paymentToContactId: payment.id,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  // So that an allowed create reaches the engine and succeeds, not just passes auth.
  await t.db.insert(assets).values({
    symbol: 'ETH',
    blockChain: 'ETHEREUM',
    name: 'Ether',
    decimals: 18,
    isNative: true,
    usdPrice: '3000',
  });
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
  for (const endpoint of ENDPOINTS) {
    for (const role of STAFF_ROLES) {
      for (const where of ['in', 'out'] as const) {
        const allowed = roleMay(role, endpoint.allowed);
        const expectation = !allowed
          ? '403 FORBIDDEN_ROLE'
          : where === 'out' && (endpoint.scope === 'filter' || endpoint.scope === 'entity')
            ? '404'
            : 'allowed';
        cells.push(`${endpoint.name}/${role}/${where}`);
        it(`${endpoint.name} · ${role} · ${where} of scope → ${expectation}`, async () => {
          const target = targets[where];
          const res = await members[role].request(endpoint.url(target, { staffId: victimId }), {
            method: endpoint.method,
            headers: { 'Content-Type': 'application/json' },
            ...(endpoint.body ? { body: JSON.stringify(endpoint.body(target, targets.in)) } : {}),
          });
          const body = (await res.json().catch(() => null)) as
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
    expect(cells).toHaveLength(ENDPOINTS.length * STAFF_ROLES.length * 2);
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
