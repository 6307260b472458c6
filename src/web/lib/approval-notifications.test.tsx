import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '#contract/live-events.ts';
import {
  mayAddItems,
  notificationSupport,
  notificationsWanted,
  setNotificationsWanted,
  shouldNotify,
} from './approval-notifications.ts';

const at = '2026-11-26T10:00:00.000Z';
const tx = (
  status: string,
  kind: 'transaction.status' | 'transaction.operation.status' = 'transaction.status',
): LiveEvent => ({
  kind,
  transactionId: 't1',
  subOrgId: null,
  status,
  at,
});
const approval = (
  kind: 'approval.proposed' | 'approval.decided' | 'approval.vote',
  status: string,
) =>
  ({ kind, entityType: 'BANK_ACCOUNT', entityId: 'b1', subOrgId: null, status, at }) as LiveEvent;

describe('which events may put a new item in the inbox', () => {
  it('a proposal, a transaction entering PENDING, a vote withdrawn', () => {
    expect(mayAddItems([approval('approval.proposed', 'PENDING')])).toBe(true);
    expect(mayAddItems([tx('PENDING')])).toBe(true);
    expect(mayAddItems([approval('approval.vote', 'WITHDRAWN')])).toBe(true);
  });

  it('never a decision, a vote cast, another status or an operation', () => {
    expect(
      mayAddItems([
        approval('approval.decided', 'APPROVED'),
        approval('approval.vote', 'APPROVE'),
        tx('APPROVED'),
        tx('COMPLETED'),
        tx('PENDING', 'transaction.operation.status'),
      ]),
    ).toBe(false);
  });
});

describe('whom a change notifies', () => {
  const wants = { hidden: true, wanted: true, support: 'granted' as const };

  it('a member who turned it on, with the tab hidden, whose decidable items grew', () => {
    expect(shouldNotify({ ...wants, before: 2, after: 3 })).toBe(true);
  });

  it('nobody whose count did not grow: their own proposal, outside their scope, a rule that does not count them', () => {
    // The server's count of items this member may decide already leaves those out.
    expect(shouldNotify({ ...wants, before: 3, after: 3 })).toBe(false);
    expect(shouldNotify({ ...wants, before: 3, after: 2 })).toBe(false);
    expect(shouldNotify({ ...wants, before: undefined, after: 4 })).toBe(false);
  });

  it('nobody looking at the tab, who did not turn it on, or whose browser does not allow it', () => {
    expect(shouldNotify({ ...wants, hidden: false, before: 0, after: 1 })).toBe(false);
    expect(shouldNotify({ ...wants, wanted: false, before: 0, after: 1 })).toBe(false);
    for (const support of ['default', 'denied', 'unsupported'] as const)
      expect(shouldNotify({ ...wants, support, before: 0, after: 1 })).toBe(false);
  });
});

describe('turning notifications on and off', () => {
  let permission: NotificationPermission;
  let answer: NotificationPermission;
  const requestPermission = vi.fn(() => {
    permission = answer;
    return Promise.resolve(answer);
  });

  beforeEach(() => {
    permission = 'default';
    requestPermission.mockClear();
    window.localStorage.clear();
    vi.stubGlobal('Notification', {
      get permission() {
        return permission;
      },
      requestPermission,
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is off until asked, asks the browser only when turned on, and stays on once granted', async () => {
    expect(notificationsWanted()).toBe(false);
    expect(requestPermission).not.toHaveBeenCalled();
    answer = 'granted';
    expect(await setNotificationsWanted(true)).toEqual({ on: true, support: 'granted' });
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(notificationsWanted()).toBe(true);
    // Off again without asking anything.
    expect(await setNotificationsWanted(false)).toEqual({ on: false, support: 'granted' });
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(notificationsWanted()).toBe(false);
  });

  it('stays off when the browser refuses', async () => {
    answer = 'denied';
    expect(await setNotificationsWanted(true)).toEqual({ on: false, support: 'denied' });
    expect(notificationsWanted()).toBe(false);
    expect(notificationSupport()).toBe('denied');
  });
});
