import { describe, expect, test } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import {
  createRampFixture,
  INTENT_CREATE_PATH,
  QUOTE_PATH,
  type RampFixture,
} from '../../test/ramp-fixtures.ts';
import { sdkCaller, type SdkCaller } from '../../test/sdk-wire.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';
import { cmp, div, mul } from '#contract/decimal.ts';
import { rateMove } from './sandbox/ramp-requote.ts';
import { referenceRate } from './sandbox/ramp-pricing.ts';

/**
 * A ramp's quote holds 60 s; approvers may decide long after. An expired
 * quote is priced again before the ramp can execute: at each approval
 * (before it counts) and as the lifecycle starts it after the final approval.
 * The new rate is judged against the rate a person accepted: within the
 * tolerance it is taken and recorded on the transaction; beyond it an
 * approver must accept the new quote by naming it, and after the final
 * approval nothing is executed at it.
 *
 * The sandbox's rates drift at most ±0.10% a minute, so this file runs
 * with a tolerance of 0.05% and picks minutes whose drift is within or beyond
 * it (the drift is a pure function of the pair and the minute).
 */

const TOLERANCE = '0.05';

const it = test
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  .extend('t', { scope: 'file' }, async ({}, { onCleanup }) => {
    const app = await createEngineTestApp({ rampRateTolerancePercent: TOLERANCE });
    onCleanup(() => app.close());
    return app;
  })
  .extend('f', { scope: 'file' }, ({ t }) => createEngineFixture(t.db, t.orgId))
  .extend('r', { scope: 'file' }, ({ t }) => createRampFixture(t))
  .extend('sdk', { scope: 'file' }, ({ t }) => sdkCaller(t, 'ramp client'))
  .extend('approver', { scope: 'file' }, ({ t }) =>
    signInStaff(t.app, t.db, t.authClock, { role: 'approver', name: 'Ada Approver' }),
  );

interface Fixtures {
  t: EngineTestApp;
  f: EngineFixture;
  r: RampFixture;
  sdk: SdkCaller;
}

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** A PENDING off-ramp of `amount` USDC from the treasury, made by the API client. */
async function offRamp({ f, r, sdk }: Fixtures, amount: string): Promise<Transaction> {
  const intent = {
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
    fromAsset: 'USDC',
    fromAmount: amount,
    fromChain: 'ETHEREUM',
    toAsset: 'USD',
  };
  const q = await sdk.call('js', 'POST', QUOTE_PATH, { intent });
  expect(q.status, q.text).toBe(200);
  const quoteId = RampQuoteResponse.parse(q.body).quotes[0]?.quoteId;
  const created = await sdk.call('js', 'POST', INTENT_CREATE_PATH, { intent, quoteId });
  expect(created.status, created.text).toBe(200);
  return Transaction.parse(created.body);
}

async function approve(member: StaffSession, entityId: string, quoteId?: string) {
  const message = await member.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return member.json(
    paths.approvalAction(approvalId),
    post({ action: 'approve', ...(quoteId ? { quoteId } : {}) }),
  );
}

async function read(t: Fixtures['t'], id: string): Promise<Transaction> {
  return Transaction.parse((await t.get(paths.transaction(id))).body);
}

/**
 * Moves the test clock on whole minutes (at least two, so the quote has
 * expired) to the first minute whose USDC → USD reference rate moved well
 * within (at most half) or well beyond (half as much again) the tolerance
 * since now. A provider's rate is the reference less its spread, so it moves
 * as the reference does; the margins keep rounding from deciding.
 */
function advanceTo(t: Fixtures['t'], want: 'within' | 'beyond'): void {
  const base = referenceRate('USDC', 'USD', t.clock.now());
  const limit = div(TOLERANCE, '100', 10);
  for (let minutes = 2; minutes < 600; minutes += 1) {
    const at = new Date(t.clock.now().getTime() + minutes * 60_000);
    const moved = rateMove(base, referenceRate('USDC', 'USD', at));
    const fits =
      want === 'within' ? cmp(moved, div(limit, '2', 10)) <= 0 : cmp(moved, mul(limit, '1.5')) > 0;
    if (fits) {
      t.clock.advance(minutes * 60_000);
      return;
    }
  }
  throw new Error(`no minute ${want} the tolerance in ten hours`);
}

describe('a ramp approved after its quote expired', () => {
  it('is priced again first: within the tolerance the approval counts and the new quote is recorded on the transaction', async ({
    t,
    f,
    r,
    sdk,
    approver,
  }) => {
    const fx = { t, f, r, sdk };
    const tx = await offRamp(fx, '101');
    const original = tx.quoteResponse;
    advanceTo(t, 'within');

    const res = await approve(approver, tx.id ?? '', original?.quoteId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const after = await read(t, tx.id ?? '');
    expect(after.status).toBe('APPROVED');
    expect(after.requotes).toHaveLength(1);
    const [requote] = after.requotes ?? [];
    expect(requote).toMatchObject({
      when: 'APPROVAL',
      previousQuoteId: original?.quoteId,
      beyondTolerance: false,
      tolerancePercent: TOLERANCE,
    });
    expect(after.quoteResponse?.quoteId).toBe(requote?.quoteId);
    expect(after.quoteResponse?.quoteId).not.toBe(original?.quoteId);
    expect(Date.parse(after.quoteResponse?.expiresAt ?? '')).toBeGreaterThan(
      t.clock.now().getTime(),
    );
    // What leaves stays what was approved; what arrives follows the new rate.
    expect(after.amount).toBe('101');
    expect(after.quoteResponse?.finalToAmount).toBe(requote?.finalToAmount);
  });

  it('beyond the tolerance, refuses (409 naming the new quote) an approval naming the old quote or none, and counts one naming the new quote', async ({
    t,
    f,
    r,
    sdk,
    approver,
  }) => {
    const fx = { t, f, r, sdk };
    const tx = await offRamp(fx, '102');
    const original = tx.quoteResponse;
    advanceTo(t, 'beyond');

    const stale = await approve(approver, tx.id ?? '', original?.quoteId);
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    const pending = await read(t, tx.id ?? '');
    expect(pending.status).toBe('PENDING');
    const fresh = pending.quoteResponse?.quoteId ?? '';
    expect(fresh).not.toBe(original?.quoteId);
    expect(stale.body).toMatchObject({
      code: 'QUOTE_CHANGED',
      message: expect.stringContaining(fresh),
      fields: [{ field: 'quoteId' }],
    });
    expect(pending.requotes?.[0]).toMatchObject({
      beyondTolerance: true,
      acceptedRate: original?.rate,
      rate: pending.quoteResponse?.rate,
    });

    // An approval naming no quote did not see the new rate either.
    const blind = await approve(approver, tx.id ?? '');
    expect(blind).toMatchObject({ status: 409, body: { code: 'QUOTE_CHANGED' } });
    const unknown = await approve(approver, tx.id ?? '', 'not-a-quote');
    expect(unknown).toMatchObject({ status: 409, body: { code: 'QUOTE_CHANGED' } });

    const accepted = await approve(approver, tx.id ?? '', fresh);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const after = await read(t, tx.id ?? '');
    expect(after.status).toBe('APPROVED');
    expect(after.acceptedQuote?.quoteId).toBe(fresh);
  });
});

describe('a ramp whose quote expired between its final approval and its execution', () => {
  it('is priced again as it executes: within the tolerance it goes on at the new rate, recorded', async ({
    t,
    f,
    r,
    sdk,
  }) => {
    const fx = { t, f, r, sdk };
    const tx = await offRamp(fx, '103');
    // Approved straight in the engine once the quote has expired, as any path after the
    // console's decision would: the lifecycle itself must price it again.
    advanceTo(t, 'within');
    await t.approve(tx.id ?? '');
    await t.run();
    const after = await read(t, tx.id ?? '');
    expect(after.status).toBe('SIGNED');
    expect(after.requotes?.map((q) => [q.when, q.beyondTolerance])).toEqual([['EXECUTION', false]]);
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).not.toBe('0');
  });

  it('beyond the tolerance, executes nothing: FAILED, saying why, its hold released', async ({
    t,
    f,
    r,
    sdk,
  }) => {
    const fx = { t, f, r, sdk };
    const heldBefore = (await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held;
    const tx = await offRamp(fx, '104');
    advanceTo(t, 'beyond');
    await t.approve(tx.id ?? '');
    await t.run();
    const after = await read(t, tx.id ?? '');
    expect(after.status).toBe('FAILED');
    expect(after.error).toMatch(/beyond the 0\.05% tolerance: nothing was sent/);
    expect(after.requotes?.[0]).toMatchObject({ when: 'EXECUTION', beyondTolerance: true });
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(heldBefore);
  });
});
