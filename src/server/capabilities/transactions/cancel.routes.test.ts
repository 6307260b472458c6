import { describe, expect } from 'vitest';
import { ActivityEventListResponse } from '#contract/activity.ts';
import { ChangeRequestHistory, changeRequestPaths } from '#contract/change-request.ts';
import { pathOf } from '#contract/endpoint.ts';
import { listActivityEvents } from '#contract/endpoints/activity.ts';
import { cancelScheduledTransaction } from '#contract/endpoints/transaction-writes.ts';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import { engineTest } from '../../test/engine-test.ts';
import { decideAsStaff } from '../../test/staff-approvals.ts';
import { signInStaff } from '../../test/staff-session.ts';

/**
 * Cancelling a scheduled transfer (POST /api/console/transactions/{id}/cancel/):
 * the custody API has none, so the console's route asks the sandbox, which
 * ends it FAILED with its error saying who called it off. Only before its time.
 */

const HOUR = 60 * 60_000;

const it = engineTest.extend('staff', { scope: 'file' }, async ({ t }) => {
  const as = (role: 'initiator' | 'approver' | 'viewer', name: string) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: null });
  return {
    ivy: await as('initiator', 'Ivy Schedule'),
    ada: await as('approver', 'Ada Schedule'),
    vic: await as('viewer', 'Vic Schedule'),
  };
});

const post = (body?: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const cancelPath = (transactionId: string) => pathOf(cancelScheduledTransaction, { transactionId });

describe('cancelling a scheduled transfer', () => {
  it('before its time, waiting for approval or approved: it ends FAILED, says who cancelled it, and nothing moves', async ({
    t,
    f,
    staff,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const schedule = async (externalId: string) => {
      const at = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
      const made = await staff.ivy.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: f.treasury.id },
          destination: { type: 'CONTACT', id: f.contacts.eth.id },
          amount: '0.0123',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          externalId,
          executeAt: at,
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return Transaction.parse(made.body).id ?? '';
    };

    const waiting = await schedule('cancel-pending');
    const approved = await schedule('cancel-approved');
    await decideAsStaff(staff.ada, approved, 'approve');
    await t.run(HOUR);
    expect(await t.status(approved)).toBe('APPROVED');

    for (const id of [waiting, approved]) {
      const res = await staff.ivy.json(cancelPath(id), post());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const cancelled = Transaction.parse(res.body);
      expect(cancelled.status).toBe('FAILED');
      expect(cancelled.error).toMatch(/^cancelled by Ivy Schedule before its scheduled time/);
    }

    // Its time comes and goes: it never signs, and the vault keeps what it had.
    await t.run(3 * HOUR);
    expect(await t.status(waiting)).toBe('FAILED');
    expect(await t.status(approved)).toBe('FAILED');
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual(before);
    // Off the approver's list: an approval now is refused.
    const late = await staff.ada.json(
      `${paths.approvalMessage()}?entityId=${encodeURIComponent(waiting)}`,
    );
    expect(late.status, JSON.stringify(late.body)).toBe(409);

    // Its change request reads CANCELLED (no approver declined it), by whom and when;
    // the activity log shows no rejection, only the transaction ending in failure.
    const history = ChangeRequestHistory.parse(
      (await staff.ivy.json(changeRequestPaths.transactionHistory(waiting))).body,
    );
    expect(history.results.at(-1)).toMatchObject({
      status: 'CANCELLED',
      decidedBy: { type: 'STAFF', name: 'Ivy Schedule' },
      reason: expect.stringMatching(/^cancelled by Ivy Schedule/),
    });
    const events = ActivityEventListResponse.parse(
      (
        await staff.ivy.json(
          `${pathOf(listActivityEvents)}?entityId=${encodeURIComponent(waiting)}&limit=50`,
        )
      ).body,
    );
    expect(events.results.map((e) => [e.action, e.outcome])).toEqual([
      ['create_applied', 'failure'],
      ['create_requested', 'success'],
    ]);
  });

  it('once its time has come it is refused 409 SCHEDULE_DUE; one never scheduled 409 NOT_SCHEDULED; a viewer 403', async ({
    t,
    f,
    staff,
  }) => {
    const at = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const made = await staff.ivy.json(
      paths.transactions(),
      post({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '0.0124',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        externalId: 'cancel-too-late',
        executeAt: at,
      }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = Transaction.parse(made.body).id ?? '';

    const byViewer = await staff.vic.json(cancelPath(id), post());
    expect(byViewer.status).toBe(403);

    await t.run(HOUR);
    const tooLate = await staff.ivy.json(cancelPath(id), post());
    expect(tooLate.status, JSON.stringify(tooLate.body)).toBe(409);
    expect(tooLate.body).toMatchObject({ code: 'SCHEDULE_DUE' });
    expect(await t.status(id)).toBe('PENDING');

    const plain = await staff.ivy.json(
      paths.transactions(),
      post({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '0.0125',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        externalId: 'cancel-not-scheduled',
      }),
    );
    const plainId = Transaction.parse(plain.body).id ?? '';
    const notScheduled = await staff.ivy.json(cancelPath(plainId), post());
    expect(notScheduled.status, JSON.stringify(notScheduled.body)).toBe(409);
    expect(notScheduled.body).toMatchObject({ code: 'NOT_SCHEDULED' });
    expect(await t.status(plainId)).toBe('PENDING');

    const unknown = await staff.ivy.json(cancelPath('no-such-transaction'), post());
    expect(unknown.status).toBe(404);
  });
});
