import type { Context } from 'hono';
import { z } from 'zod';
import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from './app-env.ts';
import { readBodyText } from './body-limit.ts';
import { assertStorableText } from './storable-text.ts';

/**
 * The one reader of JSON request bodies: read within the body's size and
 * time limits (http/body-limit.ts), once (the API-client check, the route
 * and the audit share the read), nested no deeper than a limit, and refused,
 * naming the field, if it holds text the database cannot store.
 */

/**
 * How deep a body may nest. Nothing in the custody API comes close; what does
 * would overflow the stack of every recursive walk after the parse (the body
 * hash, canonical JSON, storing it as jsonb).
 */
const MAX_BODY_DEPTH = 64;

/** The parsed JSON body; undefined when there is none. */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await readBodyText(c);
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, ERROR_CODES.invalidJson, 'The request body is not valid JSON');
  }
  if (depthExceeds(body, MAX_BODY_DEPTH)) {
    const message = `body nests deeper than ${MAX_BODY_DEPTH} levels`;
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'body', message }]);
  }
  assertStorableText(body);
  return body;
}

/**
 * The body through `readJsonBody`, then parsed with a contract schema: each
 * issue becomes a 400 VALIDATION_ERROR naming its field (`body` for the whole).
 * The console's own routes (sign-in, staff) use it; the custody routes parse
 * with `custody/routes/parse-body.ts`, where null means "not given".
 */
export async function readJsonBodyAs<S extends z.core.$ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.output<S>> {
  const parsed = z.safeParse(schema, await readJsonBody(c));
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => ({
    field: i.path.map(String).join('.') || 'body',
    message: i.message,
  }));
  throw new ApiError(
    400,
    ERROR_CODES.validation,
    fields.map((f) => `${f.field}: ${f.message}`).join('; '),
    fields,
  );
}

/** Iterative, so that measuring a hostile body cannot overflow the stack itself. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}
