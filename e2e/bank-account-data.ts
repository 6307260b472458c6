import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { composeIBAN } from 'ibantools';

/**
 * Bank-account test data and the raw API calls the bank-account specs make
 * beside the UI: proposing through the API (where the form is not what a
 * test is about), reading the audit log, and forging a decision from inside
 * a signed-in page — the request a member could hand-craft in the devtools,
 * with their own cookie and CSRF token, which only the server can refuse.
 */

let counter = 0;
/**
 * A name no other test (or earlier run on the same data) uses. Its parts are
 * kept apart, so it never holds a long run of digits that a check for
 * unmasked account numbers would take for one.
 */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)}-${counter}-${Math.floor(Math.random() * 1e4)}`;
}

/** A fresh 12-digit US account number, so no two tests share one. */
export function usAccountNumber(): string {
  return String(Math.floor(1e11 + Math.random() * 9e11));
}

/** `n` fresh digits, for a rail whose account number is digits alone. */
export function freshDigits(n: number): string {
  return String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');
}

/**
 * A valid IBAN of `countryCode` whose BBAN is `bank`, `fresh` new digits and
 * `tail`: the check digits computed, so no two tests (or runs on the same
 * data) propose the same account, which the server would warn of.
 */
export function freshIban(countryCode: string, bank: string, fresh: number, tail = ''): string {
  const iban = composeIBAN({ countryCode, bban: `${bank}${freshDigits(fresh)}${tail}` });
  if (!iban) throw new Error(`no IBAN of ${countryCode} from ${bank}`);
  return iban;
}

/** An IBAN grouped by four, as printed on a statement. */
export const groupedIban = (iban: string) => iban.replace(/(.{4})/g, '$1 ').trim();

async function csrfToken(request: APIRequestContext): Promise<string> {
  const session = await request.get('/auth/session');
  expect(session.status(), await session.text()).toBe(200);
  return ((await session.json()) as { csrfToken: string }).csrfToken;
}

/** Proposes a PENDING US ACH account as the member signed in on `page`; its id. */
export async function proposeByApi(
  page: Page,
  baseURL: string,
  overrides: Record<string, string> = {},
): Promise<{ id: string; accountName: string; accountNumber: string; routingNumber: string }> {
  const body = {
    paymentMethod: 'US_ACH',
    accountName: uniqueName('E2E Payee'),
    accountNumber: usAccountNumber(),
    routingNumber: '021000021',
    bankName: 'JPMorgan Chase Bank',
    country: 'US',
    ...overrides,
  };
  const response = await page.request.post('/api/external/bank_accounts/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': await csrfToken(page.request) },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(200);
  const { id } = (await response.json()) as { id: string };
  return { id, ...body };
}

/** The pending approval of an entity, as an approver reads it before deciding. */
export async function approvalIdFor(request: APIRequestContext, entityId: string): Promise<string> {
  const message = await request.get(
    `/api/external/change_requests/approvals/approval_message/?entityId=${entityId}`,
  );
  expect(message.status(), await message.text()).toBe(200);
  return ((await message.json()) as { approvalId: string }).approvalId;
}

/** A decision through the API as the member whose cookies `request` holds (set-up, not the flow under test). */
export async function decideByApi(
  request: APIRequestContext,
  baseURL: string,
  entityId: string,
  action: 'approve' | 'reject',
): Promise<void> {
  const approvalId = await approvalIdFor(request, entityId);
  const response = await request.post(
    `/api/external/change_requests/approvals/${approvalId}/action/`,
    {
      headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': await csrfToken(request) },
      data: action === 'reject' ? { action, reason: 'Decided by another approver' } : { action },
    },
  );
  expect(response.status(), await response.text()).toBe(200);
}

export interface ForgedAnswer {
  status: number;
  body: { code?: string; message?: string; status?: string };
}

/**
 * A decision sent from the page itself (its fetch, its cookie, the session's
 * real CSRF token, the browser's own Origin): everything the UI would send,
 * without the UI having offered it.
 */
export async function forgeDecision(
  page: Page,
  approvalId: string,
  action: 'approve' | 'reject',
): Promise<ForgedAnswer> {
  return page.evaluate(
    async ({ approvalId, action }) => {
      const session = (await (await fetch('/auth/session')).json()) as { csrfToken: string };
      const response = await fetch(
        `/api/external/change_requests/approvals/${encodeURIComponent(approvalId)}/action/`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
          body: JSON.stringify(action === 'reject' ? { action, reason: 'forged' } : { action }),
        },
      );
      return { status: response.status, body: (await response.json()) as ForgedAnswer['body'] };
    },
    { approvalId, action },
  );
}

export interface AuditEntry {
  action: string;
  actorName?: string | null;
  actorId?: string | null;
  entityId?: string | null;
  outcome: string;
  summary?: string | null;
}

/** The audit log's entries for an entity, newest first, read by an admin's session. */
export async function auditFor(
  adminRequest: APIRequestContext,
  entityId: string,
  action?: string,
): Promise<AuditEntry[]> {
  const query = new URLSearchParams({ entityId, ...(action ? { action } : {}) });
  const response = await adminRequest.get(`/api/console/audit/?${query.toString()}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { results: AuditEntry[] }).results;
}

/** The account as the API client (or a session, masked) reads it. */
export async function bankAccountStatus(request: APIRequestContext, id: string): Promise<string> {
  const response = await request.get(`/api/external/bank_accounts/${id}/`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { status: string }).status;
}
