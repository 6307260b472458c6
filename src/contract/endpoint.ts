import type * as z from 'zod/mini';
import type { Permission } from './auth.ts';

/**
 * One declaration per endpoint: its method, its full path with
 * `:name` parameters and the trailing slash the API requires, the schemas of
 * its query, body and answer, the permission a staff member's role needs and
 * how a call is audited. From it the server mounts the route (the permission,
 * the audit declaration and the parsing applied by the mount:
 * `server/http/mount.ts`), the SPA calls it through one typed function
 * (`web/lib/api-client.ts`, `call`), and the console publishes it in its
 * OpenAPI document (`/api/openapi.json`, `server/http/openapi.ts`).
 *
 * Declarations live by capability under `src/contract/endpoints/`, each a
 * plain `const`, so the SPA's bundle holds only the ones its pages call.
 */

/** Where the custody API answers: the paths the provider's SDKs call, on the console's origin. */
export const API_PREFIX = '/api/external';

/** Where the console's own API answers. */
export const CONSOLE_API_PREFIX = '/api/console';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** How a call is recorded in the audit log, or `false`: deliberately not (reads). */
export type AuditDeclaration =
  | false
  | {
      /** The audit row's action, e.g. `staff.create` (contract/audit-actions.ts names it). */
      action: string;
      entityType: string;
      /** The path parameter naming the entity, for rows about refusals. */
      entityParam?: string;
      /** The handler writes its own rows (it knows the entity and the outcome). */
      selfRecorded?: true;
      /** Sign-in is anonymous by nature: its refusals are recorded without an actor. */
      anonymous?: true;
    };

export interface Endpoint<
  Path extends string = string,
  Query extends z.ZodMiniObject | undefined = z.ZodMiniObject | undefined,
  // Bodies may be classic zod (the forms' rules, contract/transaction.ts): they load with the forms.
  Body extends z.core.$ZodType | undefined = z.core.$ZodType | undefined,
  Answer extends z.ZodMiniType = z.ZodMiniType,
> {
  method: HttpMethod;
  path: Path;
  /** One line for the OpenAPI document: what the endpoint does. */
  summary: string;
  /** What the caller does, as a refusal names it: "the viewer role cannot {action}". */
  action: string;
  /** The permission a staff member's role must hold (`contract/auth.ts`); `public`: no session. */
  permission: Permission | 'public';
  audit: AuditDeclaration;
  /** What the path's parameters name, for a 404 ("No staff member with that id"). */
  resource?: string;
  /** Filters in the query string; `paged` adds `limit` and `cursor` (contract/common.ts, PageQuery). */
  query?: Query;
  paged?: boolean;
  body?: Body;
  answer: Answer;
  /** The success status; 200 unless said. */
  status?: 200 | 201 | 204;
}

/**
 * Declares an endpoint, keeping its literal path, schemas and flags in the
 * type. Marked free of side effects, so a bundle drops every declaration no
 * code of it calls.
 */
/* @__NO_SIDE_EFFECTS__ */
export function endpoint<const D extends Endpoint>(declaration: D): D {
  return declaration;
}

/** The names of a path's `:name` segments, as a type: `'/a/:id/b/:key/'` → `'id' | 'key'`. */
export type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : never;

export type PathParams<Path extends string> = [ParamNames<Path>] extends [never]
  ? Record<string, never>
  : Record<ParamNames<Path>, string>;

/* eslint-disable @typescript-eslint/no-explicit-any -- `any` here only matches a generic slot */
/** The declared schemas of an endpoint, undefined where it has none. */
export type PathOf<E> = E extends Endpoint<infer P, any, any, any> ? P : never;
export type QuerySchemaOf<E> = E extends Endpoint<any, infer Q, any, any> ? Q : never;
export type BodySchemaOf<E> = E extends Endpoint<any, any, infer B, any> ? B : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A call's query: the declared filters, and `limit` and `cursor` where the endpoint is paged. */
export type QueryInput<E extends Endpoint> = (QuerySchemaOf<E> extends z.ZodMiniObject
  ? Partial<z.input<QuerySchemaOf<E>>>
  : unknown) &
  (E['paged'] extends true ? { limit?: number; cursor?: string | null | undefined } : unknown);

/** What a call sends: its path parameters, query and body, each only where the endpoint has one. */
export type CallInput<E extends Endpoint> = ([ParamNames<PathOf<E>>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<PathOf<E>> }) &
  (QuerySchemaOf<E> extends z.ZodMiniObject
    ? { query?: QueryInput<E> }
    : E['paged'] extends true
      ? { query?: QueryInput<E> }
      : { query?: undefined }) &
  (BodySchemaOf<E> extends z.core.$ZodType
    ? { body: z.input<BodySchemaOf<E>> }
    : { body?: undefined });

export type AnswerOf<E extends Endpoint> = z.output<E['answer']>;

/** The endpoint's path with its parameters filled in, each encoded as one segment. */
export function pathOf(e: Endpoint, params: Record<string, string> = {}): string {
  return e.path.replace(/:([A-Za-z]\w*)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${e.path} needs its ${name}`);
    return encodeURIComponent(value);
  });
}

/** The path as OpenAPI writes it: `{name}` for `:name`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]\w*)/g, '{$1}');
}

/** The names of the path's parameters, in order. */
export function paramNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]\w*)/g)].map((m) => m[1] ?? '');
}

/** `METHOD /path/:param/`: how the server's route table and the authorization matrix name an endpoint. */
export function endpointKey(e: Pick<Endpoint, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}

/** Builds a query string from defined, non-empty values, in a stable key order. */
export function toQueryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}
