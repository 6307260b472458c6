import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { hexToBytes } from './ecdsa-keys.ts';

/**
 * Webhook signatures (DESIGN.md §3): `X-Signature` is the hex
 * HMAC-SHA256(key, canonicalJson(body) + X-Timestamp), `X-Timestamp` unix
 * seconds. The timestamp is inside the MAC so a captured delivery cannot be
 * replayed later under a fresh timestamp.
 */
export function signWebhook(body: unknown, key: string, timestamp: number | string): string {
  return createHmac('sha256', key)
    .update(`${canonicalJson(body)}${timestamp}`, 'utf8')
    .digest('hex');
}

export interface VerifyWebhookOptions {
  /** When given, a timestamp further than `toleranceSeconds` from it is refused. */
  now?: Date;
  toleranceSeconds?: number;
}

export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function verifyWebhook(
  body: unknown,
  key: string,
  timestamp: number | string,
  signatureHex: string,
  options: VerifyWebhookOptions = {},
): boolean {
  if (options.now !== undefined) {
    const sentAt = Number(timestamp);
    const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
    if (!Number.isFinite(sentAt) || Math.abs(options.now.getTime() / 1000 - sentAt) > tolerance)
      return false;
  }
  const given = hexToBytes(signatureHex);
  const expected = Buffer.from(signWebhook(body, key, timestamp), 'hex');
  // timingSafeEqual throws on a length mismatch; the length of a MAC is no secret.
  return (
    given !== undefined && given.length === expected.length && timingSafeEqual(given, expected)
  );
}
