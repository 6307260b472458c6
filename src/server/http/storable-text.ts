import { ERROR_CODES } from '../../contract/common.ts';
import { ApiError, type FieldProblem } from './api-error.ts';

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

function fieldName(path: readonly string[]): string {
  return path.length === 0 ? 'body' : path.join('.');
}

/** Every string and object key in a parsed JSON body whose text cannot be stored, by field. */
export function unstorableText(body: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // Iterative: the body's depth is bounded by the reader, but a walk should not depend on it.
  const stack: Array<[unknown, string[]]> = [[body, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string[]];
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
      stack.push([child, [...path, key]]);
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
