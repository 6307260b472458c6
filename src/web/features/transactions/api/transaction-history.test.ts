import { describe, expect, it } from 'vitest';
import type { ChangeRequestHistory } from '#contract/change-request.ts';
import { missesDecision } from './transaction-history.ts';

const history = (...statuses: string[]): ChangeRequestHistory => ({
  entityId: 'tx-1',
  source: 'change_requests',
  results: statuses.map((status) => ({
    status,
    proposedBy: { type: 'STAFF', id: 'ann' },
    proposedAt: '2026-11-30T10:00:00.000Z',
    decidedBy: status === 'PENDING' ? null : { type: 'STAFF', id: 'bob' },
    decidedAt: status === 'PENDING' ? null : '2026-11-30T10:01:00.000Z',
    reason: null,
  })),
});

describe('a history read beside its transaction', () => {
  it('is asked again when it has no decision the transaction’s status says was made', () => {
    expect(missesDecision(history('PENDING'), 'APPROVED')).toBe(true);
    expect(missesDecision(history(), 'COMPLETED')).toBe(true);
  });

  it('stands when it agrees with the status, or the transaction still waits', () => {
    expect(missesDecision(history('APPROVED'), 'COMPLETED')).toBe(false);
    expect(missesDecision(history('REJECTED'), 'DECLINED')).toBe(false);
    expect(missesDecision(history('PENDING'), 'PENDING')).toBe(false);
    expect(missesDecision(history('APPROVED'), 'PENDING')).toBe(false);
    expect(missesDecision(history('PENDING'), undefined)).toBe(false);
  });
});
