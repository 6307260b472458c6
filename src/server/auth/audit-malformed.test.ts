import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { auditLog } from '../db/schema/console.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTest } from '../test/app-test.ts';

/**
 * Every request that reaches an audited route leaves exactly one audit row,
 * whatever it carries: malformed ids in the path (NUL, control characters,
 * broken or non-text percent-escapes, absurd lengths) and in the body. The
 * row is found by the request id the answer names.
 */

const PATH_IDS = ['%00', '%07', '%ZZ', '%ED%A0%80', '%F0%9F%98%80', 'a'.repeat(5_000)];
const BODY_IDS = ['\u0000', '\u0007', '\ud800', 'x'.repeat(5_000)];

interface Case {
  name: string;
  method: string;
  url: string;
  body?: unknown;
  anonymous?: boolean;
}

const cases: Case[] = [
  ...PATH_IDS.flatMap((id): Case[] => [
    {
      name: `approval action ${id.slice(0, 12)}`,
      method: 'POST',
      url: paths.approvalAction(id).replace(encodeURIComponent(id), id),
      body: { action: 'approve' },
    },
    {
      name: `staff update ${id.slice(0, 12)}`,
      method: 'PATCH',
      url: `/api/console/staff/${id}/`,
      body: { name: 'Renamed' },
    },
    {
      name: `reveal ${id.slice(0, 12)}`,
      method: 'POST',
      url: `/api/console/bank_accounts/${id}/reveal/`,
    },
    {
      name: `unknown custody mutation ${id.slice(0, 12)}`,
      method: 'POST',
      url: `/api/external/transactions/${id}/`,
      body: {},
    },
  ]),
  ...BODY_IDS.flatMap((id): Case[] => [
    {
      name: `transaction create ${JSON.stringify(id.slice(0, 12))}`,
      method: 'POST',
      url: paths.transactions(),
      body: {
        category: 'TRANSFER',
        source: { type: 'VAULT', id },
        destination: { type: 'CONTACT', id },
        amount: '1',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      },
    },
    {
      name: `replace ${JSON.stringify(id.slice(0, 12))}`,
      method: 'POST',
      url: paths.replaceTransaction(),
      body: { transactionId: id },
    },
    {
      name: `bank account create ${JSON.stringify(id.slice(0, 12))}`,
      method: 'POST',
      url: paths.bankAccounts(),
      body: { paymentMethod: 'US_ACH', subOrgId: id, accountName: id },
    },
    {
      name: `staff create ${JSON.stringify(id.slice(0, 12))}`,
      method: 'POST',
      url: '/api/console/staff/',
      body: { email: 'n@example.com', name: id, role: 'viewer', subOrgIds: [id] },
    },
    {
      name: `sign-in ${JSON.stringify(id.slice(0, 12))}`,
      method: 'POST',
      url: '/auth/login',
      body: { email: id, password: id },
      anonymous: true,
    },
  ]),
];

describe('one audit row per request to an audited route, whatever its input', () => {
  appTest.for(cases)('$name', async (c, { t }) => {
    const init: RequestInit = {
      method: c.method,
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
    };
    const res = c.anonymous ? await t.anonymous(c.url, init) : await t.admin.request(c.url, init);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
    expect(rows, `${res.status} ${await res.text()}`).toHaveLength(1);
    expect(rows[0]?.outcome).not.toBe('success');
  });

  appTest('records the malformed approval id as sent, visibly', async ({ t }) => {
    const res = await t.admin.request('/api/external/change_requests/approvals/%00/action/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'approve' }),
    });
    const requestId = res.headers.get('x-request-id') ?? '';
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
    expect(row).toMatchObject({ action: 'change_request.approve', entityId: '\\u0000' });
  });
});
