import { expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import type { StaffSession } from './staff-session.ts';

/**
 * What a member proposes and decides through the console's API, as the SPA
 * sends it; each expects the console to accept (200) and fails the test,
 * with the answer's body, otherwise. A test of a refusal sends its own call.
 */

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** `member` proposes a bank account in `subOrgId` (a US ACH account unless `fields` say otherwise); its id. */
export async function proposeBankAccount(
  member: StaffSession,
  subOrgId: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const res = await member.json(
    paths.bankAccounts(),
    post({
      paymentMethod: 'US_ACH',
      subOrgId,
      accountName: 'Proposed LLC',
      accountNumber: '100200300',
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
      ...fields,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: string }).id;
}

/** `member` approves or rejects `entityId`'s open change request: its approval message read, then the action sent. */
export async function decideAsStaff(
  member: StaffSession,
  entityId: string,
  action: 'approve' | 'reject',
  reason?: string,
): Promise<void> {
  const message = await member.json(`${paths.approvalMessage()}${toQueryString({ entityId })}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await member.json(
    paths.approvalAction(approvalId),
    post({ action, ...(reason === undefined ? {} : { reason }) }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
