import type { Context, Hono, MiddlewareHandler } from 'hono';
import type * as z from 'zod/mini';
import type { PageRequest } from '#contract/common.ts';
import {
  paramNames,
  type AnswerOf,
  type BodySchemaOf,
  type Endpoint,
  type ParamNames,
  type PathOf,
  type QuerySchemaOf,
} from '#contract/endpoint.ts';
import type { AppEnv } from './app-env.ts';
import { readJsonBody, readJsonBodyAs } from './json-body.ts';
import { parseFilters, parsePageRequest, pathId, rememberedQueries } from './list-query.ts';
import { rule, type AuditRule } from './route-rule.ts';

type QueryOf<E extends Endpoint> = (QuerySchemaOf<E> extends z.ZodMiniObject
  ? z.output<QuerySchemaOf<E>>
  : unknown) &
  (E['paged'] extends true ? PageRequest : unknown);
type BodyOf<E extends Endpoint> =
  BodySchemaOf<E> extends z.core.$ZodType ? z.output<BodySchemaOf<E>> : undefined;

/** What a handler is given: the request's parameters, query and body, each parsed by the declaration. */
export type Served<E extends Endpoint> = {
  params: Record<ParamNames<PathOf<E>>, string>;
  query: QueryOf<E>;
  body: BodyOf<E>;
};

/** The parts of an audit rule only the server can give: functions of the request and answer. */
export type AuditHooks = Pick<AuditRule, 'summary' | 'fromRequest' | 'entityOf'>;

export interface MountOptions<E extends Endpoint> {
  audit?: AuditHooks;
  /**
   * Parses the body `http/json-body.ts` read (undefined when none). Default:
   * the declared schema, each issue a 400 naming its field. The custody API
   * passes its own (`null` means "not given", as the provider's SDKs send it).
   */
  body?: (raw: unknown) => BodyOf<E>;
  /** Reads the query itself: an endpoint whose refusals are worded apart from a filter's. */
  query?: (c: Context<AppEnv>) => QueryOf<E>;
  /** Checks before anything is read or parsed (sign-in's same-origin check). */
  guard?: (c: Context<AppEnv>) => void | Promise<void>;
  /** Middleware between the rule and the handler (hono's etag). */
  before?: MiddlewareHandler<AppEnv>[];
}

/**
 * Mounts one declared endpoint (contract/endpoint.ts) on `app`, whose routes
 * answer under `base` ('/api/console'): the route's rule comes from the
 * declaration (the staff checks and the audit middleware read it), the path's
 * parameters, the query (the page when `paged`, then the filters) and the
 * body are parsed before the handler runs, each refusal a 400 or 404 naming
 * the field, and the handler's answer is sent with the declared status. A
 * handler may still answer a Response of its own (a header to set, a stream).
 */
export function mount<E extends Endpoint>(
  app: Hono<AppEnv>,
  base: string,
  e: E,
  handler: (input: Served<E>, c: Context<AppEnv>) => Promise<AnswerOf<E> | Response>,
  options: MountOptions<E> = {},
): Hono<AppEnv> {
  if (!e.path.startsWith(`${base}/`)) throw new Error(`${e.path} is not under ${base}`);
  const audit = e.audit === false ? false : { ...e.audit, ...options.audit };
  const names = paramNames(e.path);
  const { paged, query: filters } = e;
  const parseQuery =
    options.query ??
    (paged || filters
      ? rememberedQueries(
          (c) =>
            ({
              ...(paged ? parsePageRequest(c) : {}),
              ...(filters ? parseFilters(c, filters) : {}),
            }) as QueryOf<E>,
        )
      : () => ({}) as QueryOf<E>);
  app.on(
    e.method,
    e.path.slice(base.length),
    rule({ permission: e.permission, action: e.action, audit }),
    ...(options.before ?? []),
    async (c) => {
      await options.guard?.(c);
      const params: Record<string, string> = {};
      for (const name of names) params[name] = pathId(c, name, e.resource ?? 'record');
      const query = parseQuery(c);
      const body = !e.body
        ? undefined
        : options.body
          ? options.body(await readJsonBody(c))
          : await readJsonBodyAs(c, e.body);
      const answer = await handler({ params, query, body } as Served<E>, c);
      if (answer instanceof Response) return answer;
      if (e.status === 204) return c.body(null, 204);
      return c.json(answer as object, e.status ?? 200);
    },
  );
  return app;
}
