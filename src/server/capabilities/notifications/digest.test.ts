import { describe, expect, it } from 'vitest';
import { digestMessage, nextDigestAt } from './notifier.ts';

describe('the daily digest', () => {
  it("comes at the member's hour in their zone, the next time that hour comes", () => {
    const now = new Date('2026-03-10T10:20:00Z');
    expect(nextDigestAt(now, 8, 'UTC').toISOString()).toBe('2026-03-11T08:00:00.000Z');
    expect(nextDigestAt(now, 11, 'UTC').toISOString()).toBe('2026-03-10T11:00:00.000Z');
    // 08:00 in New York (UTC-4 from 8 March 2026) is 12:00 UTC.
    expect(nextDigestAt(now, 8, 'America/New_York').toISOString()).toBe('2026-03-10T12:00:00.000Z');
    expect(nextDigestAt(now, 9, 'Asia/Tokyo').toISOString()).toBe('2026-03-11T00:00:00.000Z');
  });

  it('lists each waiting item with its link, and decides nothing', () => {
    const { subject, text } = digestMessage(
      [
        { subject: 'Bank account a needs your approval', link: 'https://c/bank-accounts/a' },
        { subject: 'Transaction t needs your approval', link: 'https://c/transactions/t' },
      ],
      'https://c/',
    );
    expect(subject).toBe('Your daily digest: 2 items need your approval');
    expect(text).toContain('- Bank account a needs your approval: https://c/bank-accounts/a');
    expect(text).toContain('- Transaction t needs your approval: https://c/transactions/t');
    expect(text).toContain('https://c/approvals');
    expect(text).toMatch(/never from this message/);
  });
});
