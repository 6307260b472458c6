import { describe, expect, it } from 'vitest';
import {
  SIGNATURE_ENCODING_HINT,
  SIGNATURE_ENCODING_LABELS,
  SIGNATURE_ENCODINGS,
} from './webhooks.ts';

describe('the signature encoding, in plain words', () => {
  it('says what the receiver gets first, and keeps the technical term second', () => {
    for (const encoding of SIGNATURE_ENCODINGS) {
      const label = SIGNATURE_ENCODING_LABELS[encoding];
      expect(label.startsWith('Letters like é')).toBe(true);
      expect(label.endsWith(`(${encoding})`)).toBe(true);
    }
    expect(SIGNATURE_ENCODING_LABELS.ASCII_ESCAPED).toContain('\\u00e9');
    expect(SIGNATURE_ENCODING_LABELS.UNESCAPED).toContain('as they are');
  });

  it('says what every receiver gets whichever is chosen: a JSON body signed in X-Signature', () => {
    expect(SIGNATURE_ENCODING_HINT).toMatch(/^Every event is a JSON body/);
    expect(SIGNATURE_ENCODING_HINT).toContain('HMAC-SHA256');
    expect(SIGNATURE_ENCODING_HINT).toContain('X-Signature');
    expect(SIGNATURE_ENCODING_HINT).toContain('X-Timestamp');
  });
});
