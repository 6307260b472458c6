import { expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { proposeLedgerClose } from '#contract/endpoints/ledger-periods.ts';
import { LedgerPeriod } from '#contract/ledger-periods.ts';
import { monthOf, previousMonth } from '../capabilities/ledger/periods/month.ts';
import type { StaffSession } from './staff-session.ts';

/**
 * Closing a month of the ledger as the console's API does it: `proposer`
 * proposes, `decider` (another admin of the whole organization) approves
 * its held item. Each expects the console to accept; a test of a refusal
 * sends its own call.
 */

export const jsonBody = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** The month before `now`'s, in UTC (the test members' zone). */
export const lastMonth = (now: Date) => previousMonth(monthOf(now, 'UTC'));

export async function proposeClose(proposer: StaffSession, month: string): Promise<LedgerPeriod> {
  const res = await proposer.json(pathOf(proposeLedgerClose), jsonBody('POST', { month }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return LedgerPeriod.parse(res.body);
}

export async function closeMonth(
  proposer: StaffSession,
  decider: StaffSession,
  month: string,
): Promise<LedgerPeriod> {
  const period = await proposeClose(proposer, month);
  const res = await decider.json(
    pathOf(decideApprovable, { entityId: period.heldItemId }),
    jsonBody('POST', { action: 'approve' }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return period;
}
