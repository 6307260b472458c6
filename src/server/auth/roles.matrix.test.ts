import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '../../contract/auth.ts';
import { paths } from '../../contract/paths.ts';
import {
  createBankAccount,
  createContact,
  createSubOrg,
  createTransaction,
  createVault,
} from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { REVEAL_ROLES, ROLE_PERMISSIONS, type Permission } from './roles.ts';

/**
 * The authorization matrix (issue 4): every role × every endpoint × a target
 * inside and outside the member's sub-organization, each cell asserted.
 * Members are restricted to sub-org A; "out" targets sub-org B's data.
 * Add a row to ENDPOINTS when an endpoint is added.
 */

interface Target {
  subOrgId: string;
  transactionId: string;
  bankAccountId: string;
  vaultId: string;
  contactId: string;
}

/** How the scope shows on an endpoint once the role is allowed. */
type ScopeKind =
  | 'filter' // ?subOrgId=: inside 200, outside 404
  | 'entity' // an id in the path: inside 200, outside 404
  | 'listed' // no filter: inside's row listed, outside's never
  | 'none' // not scoped (assets, chains, console admin pages): the same either way
  | 'not-refused'; // mutations whose own rules answer (validation, 404s…): never 401/403

interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  url(target: Target, ctx: { staffId: string }): string;
  body?(target: Target): unknown;
  /** Who may call it: a permission from roles.ts, or an explicit list of roles. */
  allowed: Permission | readonly StaffRole[];
  scope: ScopeKind;
  /** For 'listed': the id the row carries. */
  listedId?(target: Target): string;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'list transactions',
    method: 'GET',
    url: (t) => `${paths.transactions()}?subOrgId=${t.subOrgId}`,
    allowed: 'read',
    scope: 'filter',
  },
  {
    name: 'get transaction',
    method: 'GET',
    url: (t) => paths.transaction(t.transactionId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'create transaction',
    method: 'POST',
    url: () => paths.transactions(),
    body: (t) => ({
      category: 'TRANSFER',
      vaultId: t.vaultId,
      blockChain: 'ETHEREUM',
      asset: 'ETH',
      amount: '0.01',
      destination: { type: 'CONTACT', id: t.contactId },
    }),
    allowed: 'initiate',
    scope: 'not-refused',
  },
  {
    name: 'replace transaction',
    method: 'POST',
    url: () => paths.replaceTransaction(),
    body: (t) => ({ transactionId: t.transactionId }),
    allowed: 'initiate',
    scope: 'not-refused',
  },
  {
    name: 'estimate fee',
    method: 'POST',
    url: () => paths.estimateFee(),
    body: (t) => ({ vaultId: t.vaultId, blockChain: 'ETHEREUM', asset: 'ETH', amount: '0.01' }),
    allowed: 'initiate',
    scope: 'not-refused',
  },
  {
    name: 'list bank accounts',
    method: 'GET',
    url: (t) => `${paths.bankAccounts()}?subOrgId=${t.subOrgId}`,
    allowed: 'read',
    scope: 'filter',
  },
  {
    name: 'get bank account',
    method: 'GET',
    url: (t) => paths.bankAccount(t.bankAccountId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'create bank account',
    method: 'POST',
    url: () => paths.bankAccounts(),
    body: (t) => ({
      paymentMethod: 'US_ACH',
      subOrgId: t.subOrgId,
      accountName: 'Matrix',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
    allowed: 'initiate',
    scope: 'not-refused',
  },
  {
    name: 'approval message',
    method: 'GET',
    url: (t) => `${paths.approvalMessage()}?entityId=${t.bankAccountId}`,
    allowed: 'approve',
    scope: 'not-refused',
  },
  {
    name: 'approval action',
    method: 'POST',
    url: () => paths.approvalAction('no-such-approval'),
    body: () => ({ action: 'reject', reason: 'matrix' }),
    allowed: 'approve',
    scope: 'not-refused',
  },
  {
    name: 'list vaults',
    method: 'GET',
    url: () => paths.vaults(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.vaultId,
  },
  {
    name: 'get vault',
    method: 'GET',
    url: (t) => paths.vault(t.vaultId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'vault balances',
    method: 'GET',
    url: (t) => paths.vaultBalances(t.vaultId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'list contacts',
    method: 'GET',
    url: () => paths.contacts(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.contactId,
  },
  { name: 'list assets', method: 'GET', url: () => paths.assets(), allowed: 'read', scope: 'none' },
  {
    name: 'supported chains',
    method: 'GET',
    url: () => paths.supportedChains(),
    allowed: 'read',
    scope: 'none',
  },
  {
    name: 'list sub-orgs',
    method: 'GET',
    url: () => paths.subOrgs(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.subOrgId,
  },
  {
    name: 'list staff',
    method: 'GET',
    url: () => '/api/console/staff/',
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'create staff',
    method: 'POST',
    url: () => '/api/console/staff/',
    body: () => ({}),
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'update staff',
    method: 'PATCH',
    url: (_t, c) => `/api/console/staff/${c.staffId}/`,
    body: () => ({ name: 'Renamed' }),
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'audit log',
    method: 'GET',
    url: () => '/api/console/audit/',
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'reveal account number',
    method: 'GET',
    url: (t) => `/api/console/bank_accounts/${t.bankAccountId}/reveal/`,
    allowed: REVEAL_ROLES,
    scope: 'entity',
  },
];

function roleMay(role: StaffRole, allowed: Endpoint['allowed']): boolean {
  return typeof allowed === 'string'
    ? ROLE_PERMISSIONS[role].includes(allowed)
    : allowed.includes(role);
}

let t: TestApp;
const targets: Record<'in' | 'out', Target> = {} as Record<'in' | 'out', Target>;
const members = {} as Record<StaffRole, StaffSession>;
let victimId: string;

async function makeTarget(name: string): Promise<Target> {
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
  const bankAccount = await createBankAccount(t.db, { orgId: t.orgId, subOrgId: subOrg.id });
  return {
    subOrgId: subOrg.id,
    transactionId: transaction.id,
    bankAccountId: bankAccount.id,
    vaultId: vault.id,
    contactId: contact.id,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  targets.in = await makeTarget('Inside');
  targets.out = await makeTarget('Outside');
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
            ...(endpoint.body ? { body: JSON.stringify(endpoint.body(target)) } : {}),
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
            case 'not-refused':
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
