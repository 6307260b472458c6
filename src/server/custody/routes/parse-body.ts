import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { API_PREFIX, type AnswerOf, type Endpoint } from '#contract/endpoint.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount, type MountOptions, type Served } from '../../http/mount.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { withoutDataSignature } from '../../protocol/api-token.ts';
import { ApiError, type FieldProblem } from '#contract/api-error.ts';

/**
 * Request bodies of the custody API's mutations (read by
 * `http/json-body.ts`), checked by the contract's schema, every problem a 400
 * naming its field. The Python SDK adds `dataSignatureHex` to every body; the
 * API-client middleware has already verified it, so here it is simply not
 * part of the request.
 */

export function parseBody<S extends z.core.$ZodType>(schema: S, body: unknown): z.output<S> {
  const input = withoutNulls(withoutDataSignature(body ?? {}));
  const parsed = z.safeParse(schema, input);
  if (parsed.success) return parsed.data;
  const fields = fieldProblems(parsed.error, input);
  throw new ApiError(400, ERROR_CODES.validation, fields.map((f) => f.message).join('; '), fields);
}

/**
 * Party fields newer Python SDKs send for ramps and intents. A ramp's body
 * takes them (contract/ramps.ts); any other kind refuses them, saying where
 * a ramp goes (docs/api-clients.md); sent as
 * null they are simply not given.
 */
const RAMP_PARTY_FIELDS = new Set(['provider', 'bankDetails', 'paymentRail', 'chain', 'subOrgId']);

/** One problem per field and rule, each message starting with the field's name. */
function fieldProblems(error: z.ZodError, input: unknown): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const inParty = issue.path.length > 0;
      for (const key of issue.keys) {
        const message =
          inParty && RAMP_PARTY_FIELDS.has(key)
            ? `${key} is a ramp party field: only a ramp takes it (POST …/transactions/quote/, then intent/create/ or category ON_RAMP/OFF_RAMP with the quoteId)`
            : `${key} is not a field of this request`;
        out.push({ field: key, message });
      }
      continue;
    }
    const field = issue.path.map(String).join('.');
    if (field === '') {
      out.push({ field: 'body', message: 'body must be a JSON object' });
      continue;
    }
    let message = issue.message;
    // Zod words a missing field as a wrong type or option; say what it is.
    if (issue.code !== 'custom' && valueAt(input, issue.path) === undefined) {
      message = `${field} is required`;
    } else if (!message.startsWith(field)) {
      message = `${field}: ${message}`;
    }
    out.push({ field, message });
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * SDKs built from optional fields send an unset one as null, at every depth:
 * the Python SDK writes a party as `{"type", "id", "name": null, ...}` and
 * contract-call data as `{"callData", "toAddress": null}`. null means "not
 * given" here, as it does in every response of this API. Array elements are
 * values, not fields, so they stay for the schema to judge (objects inside
 * them are cleaned). A contract call's `data.params` are the contract's own
 * arguments, where a null may be meant: they are kept as sent.
 */
const OPAQUE_PATHS = new Set(['data.params']);

function withoutNulls(value: unknown, path = ''): unknown {
  if (value === null || typeof value !== 'object' || OPAQUE_PATHS.has(path)) return value;
  if (Array.isArray(value)) return value.map((item) => withoutNulls(item, `${path}[]`));
  const kept: Array<[string, unknown]> = [];
  for (const [key, child] of Object.entries(value)) {
    if (child !== null) kept.push([key, withoutNulls(child, path === '' ? key : `${path}.${key}`)]);
  }
  return Object.fromEntries(kept);
}

/**
 * Mounts a custody API endpoint (contract/endpoints/) on a router served
 * under `API_PREFIX`: as `http/mount.ts` mounts any declared endpoint, with
 * the body parsed by `parseBody` (null means "not given"; the Python SDK's
 * `dataSignatureHex` dropped), as the provider's SDKs send it.
 */
export function mountCustody<E extends Endpoint>(
  app: Hono<AppEnv>,
  e: E,
  handler: (input: Served<E>, c: Context<AppEnv>) => Promise<AnswerOf<E> | Response>,
  options: MountOptions<E> = {},
): Hono<AppEnv> {
  const schema = e.body;
  return mount(app, API_PREFIX, e, handler, {
    ...(schema ? { body: (raw: unknown) => parseBody(schema, raw) as Served<E>['body'] } : {}),
    ...options,
  });
}
