import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_ENCODINGS, type SignatureEncoding } from '#contract/webhooks.ts';

/**
 * How a webhook is signed, as the provider's SDK examples verify it
 * (`examples/webhook.tsx` in primevault_api_sdk_js_public,
 * `examples/webhooks.py` in primevault_api_sdk_public): both parse the body,
 * write it again as compact JSON with its keys sorted, append `X-Timestamp`
 * and compare `X-Signature` with the hex HMAC-SHA256 of that text under the
 * verification key (UTF-8). They write it again differently:
 *
 * - Python's `json.dumps(data, sort_keys=True, separators=(",", ":"))`
 *   escapes every character outside printable ASCII as `\uXXXX` (lowercase
 *   hex, astral characters as their surrogate pair; DEL too), and sorts the
 *   keys of every object, inside arrays as well;
 * - JavaScript's `JSON.stringify` of the keys sorted writes those characters
 *   as they are, and sorts no object inside an array (it keeps the order the
 *   body had).
 *
 * Everything else is written alike (`\"`, `\\`, `\n`…, `\u00XX` for other
 * control characters, integers). So the sandbox sends, as the body, the very
 * text it signs: every object's keys sorted, inside arrays too (so the
 * JavaScript verifier's order is the sorted one), and characters outside
 * printable ASCII written as the endpoint's `signatureEncoding` says. A body
 * of printable ASCII verifies with both; one with other characters with the
 * example the endpoint named. The keys are the contract's (ASCII, none that
 * look like array indexes, whose order JavaScript would change) and the
 * numbers integers (nonce, sequence): no float reaches a body.
 */

/** `text` as a JSON string, Python's ensure_ascii way when `escape`. */
function quote(text: string, escape: boolean): string {
  const json = JSON.stringify(text);
  if (!escape) return json;
  // UTF-16 code units: an astral character comes out as its pair, as Python writes it.
  return json.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function write(value: unknown, escape: boolean): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value, escape);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('a webhook body holds no NaN or Infinity');
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => write(v ?? null, escape)).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${quote(k, escape)}:${write(record[k], escape)}`).join(',')}}`;
    }
    default:
      throw new Error(`a webhook body holds no ${typeof value}`);
  }
}

/** The signed text of a body: compact JSON, keys sorted throughout, written as `encoding` says. */
export function canonicalJson(value: unknown, encoding: SignatureEncoding): string {
  return write(value, encoding === 'ASCII_ESCAPED');
}

/** The `X-Signature` of `text` sent at `timestamp` (unix seconds). */
export function signatureOf(key: string, text: string, timestamp: number): string {
  return createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(`${text}${timestamp}`, 'utf8')
    .digest('hex');
}

/** A new verification key: 32 random bytes, as text (the SDKs take the key as a string). */
export function newVerificationKey(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Whether `signature` signs `body` (already parsed) at `timestamp` under
 * `key`, written either way: the receiver does not know which SDK's text the
 * sender signed (the provider's, an ASCII-only body, signs both alike).
 */
export function verifySignature(
  key: string,
  body: unknown,
  timestamp: number,
  signature: string,
): boolean {
  if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  return SIGNATURE_ENCODINGS.some((encoding) => {
    const expected = Buffer.from(signatureOf(key, canonicalJson(body, encoding), timestamp), 'hex');
    return timingSafeEqual(expected, given);
  });
}
