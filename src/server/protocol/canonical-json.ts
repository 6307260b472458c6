import { createHash } from 'node:crypto';

/**
 * The JSON the custody API's clients hash and sign: compact
 * (`,` and `:` without spaces), object keys sorted recursively, arrays in
 * order, non-ASCII characters written as themselves. Both SDKs produce this
 * (Python: `json.dumps(v, sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False)`), so the sandbox must reproduce it byte for byte.
 *
 * Written as a serializer rather than "sort, then JSON.stringify" because a
 * JS object always lists integer-like keys ("2", "10") first in numeric order,
 * whatever order they were inserted in, while a sorted-key writer puts "10"
 * before "2".
 */
export function canonicalJson(value: unknown): string {
  const text = write(value, new Set());
  // JSON.stringify(undefined) is undefined too; a body that is not JSON has no hash.
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON representation');
  return text;
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
  ) {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value !== 'object') {
    // Strings, numbers, booleans and null: JSON.stringify already writes them
    // exactly as the SDKs do (non-ASCII kept, lone surrogates escaped,
    // non-finite numbers as null); undefined, functions and symbols yield undefined.
    if (typeof value === 'bigint')
      throw new TypeError('canonicalJson: BigInt has no JSON representation');
    return JSON.stringify(value) as string | undefined;
  }
  if (ancestors.has(value)) throw new TypeError('canonicalJson: value is circular');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item) => write(item, ancestors) ?? 'null').join(',')}]`;
    }
    const parts: string[] = [];
    // Array#sort compares UTF-16 code units, as a JS client does; Python
    // compares code points. They only differ for keys mixing astral
    // characters with U+E000–U+FFFF, and the API's keys are ASCII.
    for (const key of Object.keys(value).sort()) {
      const text = write((value as Record<string, unknown>)[key], ancestors);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** Lowercase hex SHA-256 of a UTF-8 string. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The `body` claim of a request token: hex SHA-256 of the canonical JSON of
 * the body. A request without a body (every GET) hashes `{}`, as the SDKs do.
 */
export function bodyHash(body: unknown): string {
  return sha256Hex(body === undefined || body === null ? '{}' : canonicalJson(body));
}
