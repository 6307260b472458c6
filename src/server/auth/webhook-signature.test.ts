import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';

const body = {
  version: '2.0.0',
  event: 'TRANSACTION_STATUS_CHANGED',
  eventId: 'evt-1',
  data: { transaction: { status: 'COMPLETED', id: 'tx-1' } },
};
const key = 'whsec-test';
const timestamp = 1767225600;

describe('webhook signatures', () => {
  it('is the hex HMAC-SHA256 of the sorted-key JSON followed by the timestamp', () => {
    // Computed with Python's hmac over json.dumps(sort_keys=True, separators=(",", ":")) + "1767225600".
    const python = 'e3b31a6792b366ca7e9fe4a323e184f49e0331b9c8c987bb39ec873c2da4b240';
    const byHand = createHmac('sha256', key)
      .update(
        '{"data":{"transaction":{"id":"tx-1","status":"COMPLETED"}},"event":"TRANSACTION_STATUS_CHANGED","eventId":"evt-1","version":"2.0.0"}1767225600',
      )
      .digest('hex');
    expect(byHand).toBe(python);
    expect(signWebhook(body, key, timestamp)).toBe(python);
    expect(signWebhook(body, key, String(timestamp))).toBe(python);
  });

  it('verifies its own signatures and refuses altered deliveries', () => {
    const signature = signWebhook(body, key, timestamp);
    expect(verifyWebhook(body, key, timestamp, signature)).toBe(true);
    expect(verifyWebhook(body, key, timestamp, signature.toUpperCase())).toBe(true);
    expect(verifyWebhook({ ...body, eventId: 'evt-2' }, key, timestamp, signature)).toBe(false);
    expect(verifyWebhook(body, key, timestamp + 1, signature)).toBe(false);
    expect(verifyWebhook(body, 'other-key', timestamp, signature)).toBe(false);
    expect(verifyWebhook(body, key, timestamp, signature.slice(0, 62))).toBe(false);
    expect(verifyWebhook(body, key, timestamp, 'zz')).toBe(false);
  });

  it('refuses a timestamp outside the tolerance when given a clock', () => {
    const signature = signWebhook(body, key, timestamp);
    const at = (seconds: number) => new Date((timestamp + seconds) * 1000);
    expect(verifyWebhook(body, key, timestamp, signature, { now: at(299) })).toBe(true);
    expect(verifyWebhook(body, key, timestamp, signature, { now: at(301) })).toBe(false);
    expect(verifyWebhook(body, key, timestamp, signature, { now: at(-301) })).toBe(false);
    expect(
      verifyWebhook(body, key, timestamp, signature, { now: at(20), toleranceSeconds: 10 }),
    ).toBe(false);
    expect(verifyWebhook(body, key, 'soon', signWebhook(body, key, 'soon'), { now: at(0) })).toBe(
      false,
    );
  });
});
