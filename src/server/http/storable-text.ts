import { ERROR_CODES } from '#contract/common.ts';
import { ApiError, type FieldProblem } from '#contract/api-error.ts';

/**
 * Text the database cannot keep as sent is refused where a request body is
 * read, naming the field, before any query sees it: PostgreSQL refuses a NUL
 * character in text and JSON (and its error would echo the query's
 * parameters), and an unpaired UTF-16 surrogate (`"\ud800"`) has no UTF-8 form,
 * so it would be stored silently changed into U+FFFD.
 */

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problemWith(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain a NUL character (\\u0000)';
  if (UNPAIRED_SURROGATE.test(text))
    return 'must not contain an unpaired surrogate (\\ud800–\\udfff): it is not text';
  return undefined;
}

/** A field's path as a linked list, so a walk of a deep body never copies paths. */
interface PathNode {
  key: string;
  parent: PathNode | null;
}

function fieldName(node: PathNode | null): string {
  const keys: string[] = [];
  for (let n = node; n; n = n.parent) keys.push(n.key);
  return keys.length === 0 ? 'body' : keys.reverse().join('.');
}

/** Every string and object key in a parsed JSON body whose text cannot be stored, by field. */
function unstorableText(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // Iterative, and linear in the body's size however deep it nests.
  const stack: Array<[unknown, PathNode | null]> = [[body, null]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, PathNode | null];
    if (typeof value === 'string') {
      const rule = problemWith(value);
      if (rule) problems.push({ field: fieldName(path), message: `${fieldName(path)} ${rule}` });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value)) {
      const rule = problemWith(key);
      if (rule) {
        // The key itself cannot be a field name in a message; its parent is.
        const parent = fieldName(path);
        problems.push({ field: parent, message: `${parent}: a key ${rule}` });
        continue;
      }
      stack.push([child, { key, parent: path }]);
    }
  }
  return problems.reverse();
}

/** 400 naming each field whose text cannot be stored. */
export function assertStorableText(body: unknown): void {
  const problems = unstorableText(body);
  if (problems.length === 0) return;
  throw new ApiError(
    400,
    ERROR_CODES.validation,
    problems.map((p) => p.message).join('; '),
    problems,
  );
}

/**
 * Text the server itself stores (the audit trail) made storable: NUL and
 * unpaired surrogates written as visible `\uXXXX` escapes, so a request
 * carrying them is still recorded, and recorded recognisably.
 */
export function escapeUnstorable(text: string): string {
  const unstorable = new RegExp(`\u0000|${UNPAIRED_SURROGATE.source}`, 'g');
  return text.replace(unstorable, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
