import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyHash, canonicalJson } from './canonical-json.ts';

// Written by Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False).
const PYTHON_VECTOR = {
  value: {
    source: { type: 'VAULT', id: 'v1' },
    amount: '1.5',
    memo: 'café ☕ 日本',
    '10': 1,
    '9': [3, { z: null, a: true }],
    destination: { type: 'CONTACT', id: 'c1' },
  },
  json: '{"10":1,"9":[3,{"a":true,"z":null}],"amount":"1.5","destination":{"id":"c1","type":"CONTACT"},"memo":"café ☕ 日本","source":{"id":"v1","type":"VAULT"}}',
  sha256: '7a3aedecbc99123f2a8241d5e62401ebc1cb573b68f6f4eb51da9211a7fecb50',
};

/** A copy of a JSON value with every object's keys inserted in a seeded random order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i > 0; i--) {
      const j = next() % (i + 1);
      [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
    }
    return Object.fromEntries(keys.map((k) => [k, walk((v as Record<string, unknown>)[k])]));
  };
  return walk(value);
}

describe('canonicalJson', () => {
  it('writes what the Python SDK writes: sorted keys, compact, non-ASCII as is', () => {
    expect(canonicalJson(PYTHON_VECTOR.value)).toBe(PYTHON_VECTOR.json);
    expect(bodyHash(PYTHON_VECTOR.value)).toBe(PYTHON_VECTOR.sha256);
  });

  it('sorts integer-like keys as strings, which JSON.stringify cannot', () => {
    expect(canonicalJson({ '2': 'b', '10': 'a', x: { '9': 1, '10': 2 } })).toBe(
      '{"10":"a","2":"b","x":{"10":2,"9":1}}',
    );
  });

  it('keeps array order and treats missing values as JSON.stringify does', () => {
    expect(canonicalJson({ b: [3, 1, 2], a: undefined, c: [undefined] })).toBe(
      '{"b":[3,1,2],"c":[null]}',
    );
    expect(canonicalJson({ at: new Date('2026-01-01T00:00:00Z') })).toBe(
      '{"at":"2026-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson('"quoted"\n')).toBe(JSON.stringify('"quoted"\n'));
  });

  it('refuses what has no JSON form', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(/BigInt/);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => canonicalJson(circular)).toThrow(/circular/);
  });

  it('does not depend on the order keys were inserted in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        expect(canonicalJson(shuffleKeys(value, seed))).toBe(canonicalJson(value));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips through JSON.parse to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('bodyHash', () => {
  it('hashes {} when there is no body', () => {
    const empty = createHash('sha256').update('{}').digest('hex');
    expect(empty).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(bodyHash(undefined)).toBe(empty);
    expect(bodyHash(null)).toBe(empty);
    expect(bodyHash({})).toBe(empty);
  });
});
