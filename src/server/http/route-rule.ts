import type { Context, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Permission } from '#contract/auth.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Each route declares its rule where it is defined — who may call it and how
 * it is audited — as the first handler of the route:
 *
 *   .post(routes.bankAccounts, rule({ permission: 'initiate', action: 'create bank accounts',
 *     audit: { action: 'bank_account.create', entityType: 'BANK_ACCOUNT', summary } }), handler)
 *
 * The staff checks (`auth/session-auth.ts`) and the audit middleware
 * (`auth/audit.ts`) run before the route and read its rule through Hono's
 * matched routes, so a refusal before the handler is still held to the rule
 * and recorded. `declaredRules(app)` lists every route with its rule: the
 * authorization matrix test takes its rows from it, and a route without a
 * rule fails that test. See ARCHITECTURE.md, "Where each rule lives".
 */

export interface AuditRule {
  /** The audit row's action, e.g. `transaction.create`. */
  action: string;
  entityType: string;
  /** The route's path parameter that names the entity, for rows about refusals. */
  entityParam?: string;
  /**
   * For a refusal, the entity that path parameter leads to when it is not the
   * entity itself (a decision's approval id → its bank account or transaction),
   * so that refusals are filed under the same id as the successes. Null: keep
   * the parameter.
   */
  entityOf?(param: string, c: Context<AppEnv>): Promise<string | null>;
  /**
   * The handler writes its own rows through `audit()` (sign-in, staff, reveal);
   * the middleware records only refusals that left no row.
   */
  selfRecorded?: true;
  /** Sign-in is anonymous by nature: its refusals are recorded without an actor. */
  anonymous?: true;
  /** Read from the request body before the handler: a finer action, a note the row ends with. */
  fromRequest?(body: unknown, c: Context<AppEnv>): { action?: string; note?: string };
  /** The row's summary for a success, from the answer's body and the (refined) action. */
  summary?(answer: Record<string, unknown>, action: string): string;
}

export interface RouteRule {
  /**
   * The permission a staff member's role must hold (`src/contract/auth.ts`).
   * `public`: the /auth endpoints, which need no session (they check their own).
   * API clients are held to the custody service's rules instead.
   */
  permission: Permission | 'public';
  /** Names the action in a refusal: "the viewer role cannot create transactions". */
  action: string;
  /** How a call is recorded; `false` says deliberately not (reads, a read sent as POST). */
  audit: AuditRule | false;
}

/** The rule of a plain read: any role may call it, and reads are not audited. */
export const READ: RouteRule = { permission: 'read', action: 'read', audit: false };

const declared = new WeakMap<object, RouteRule>();

/** The rule of the route it precedes; it does nothing itself at request time. */
export function rule(declaration: RouteRule): MiddlewareHandler<AppEnv> {
  const marker: MiddlewareHandler<AppEnv> = (_c, next) => next();
  declared.set(marker, declaration);
  return marker;
}

export interface MatchedRule {
  rule: RouteRule;
  /** The route's pattern as mounted, e.g. `/api/external/bank_accounts/:bankAccountId/`. */
  path: string;
}

/** The rule of the route this request matched, or undefined for a route miss (or a route without one). */
export function ruleOf(c: Context<AppEnv>): MatchedRule | undefined {
  for (const route of matchedRoutes(c)) {
    const found = declared.get(route.handler);
    if (found) return { rule: found, path: route.path };
  }
  return undefined;
}

/**
 * A path parameter of the matched route, read from the path as sent (a
 * malformed escape such as `%ZZ` is kept as sent). Middleware that runs
 * before the route cannot ask Hono for the route's parameters.
 */
export function paramOf(matched: MatchedRule, path: string, name: string): string | null {
  const pattern = matched.path.split('/');
  const at = pattern.findIndex((segment) => segment === `:${name}`);
  if (at === -1) return null;
  const segment = path.split('/')[at];
  if (segment === undefined || segment === '') return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface DeclaredRoute {
  method: string;
  path: string;
  rule: RouteRule | undefined;
}

/** Every route of an app (middleware left out) with the rule it declares, if any. */
export function declaredRules(app: Hono<AppEnv>): DeclaredRoute[] {
  const byRoute = new Map<string, DeclaredRoute>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue; // app.use(): middleware, not an endpoint
    const key = `${route.method} ${route.path}`;
    const entry = byRoute.get(key) ?? { method: route.method, path: route.path, rule: undefined };
    entry.rule ??= declared.get(route.handler);
    byRoute.set(key, entry);
  }
  return [...byRoute.values()];
}
