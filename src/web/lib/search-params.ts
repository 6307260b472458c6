/**
 * The router's URL search (de)serialiser. TanStack Router's default
 * JSON-parses every value, so `?externalId=123` would arrive as a number and
 * `?externalId=1.50` as 1.5. Every value here stays a string; a key repeated
 * in the URL becomes an array, and an array is written as a repeated key.
 */

export function parseSearch(searchStr: string): Record<string, string | string[]> {
  const params = new URLSearchParams(searchStr.startsWith('?') ? searchStr.slice(1) : searchStr);
  const result: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    result[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return result;
}

function toParam(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

export function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      const param = toParam(item);
      if (param !== undefined) params.append(key, param);
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
