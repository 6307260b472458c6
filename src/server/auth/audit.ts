import type { Context, MiddlewareHandler } from 'hono';
import { maskNumbersIn } from '#contract/bank-account.ts';
import { API_PREFIX } from '#contract/paths.ts';
import type { AppEnv } from '../http/app-env.ts';
import { readBodyText } from '../http/body-limit.ts';
import { paramOf, ruleOf, type AuditRule } from '../http/route-rule.ts';
import { recordAudit, type AuditOutcome } from './audit.store.ts';
import { clientIp, isMutation } from './csrf.ts';
import type { AuthOptions } from './session-auth.ts';

/**
 * Writing the audit trail: every mutation and every reveal — who, what,
 * when, outcome, request id. Each route declares how it is audited (its
 * `rule`); custody API mutations are recorded after the handler from that
 * declaration and the answer; sign-in, staff management and reveals record
 * themselves through `audit()`.
 */

function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return 'success';
  return status === 401 || status === 403 ? 'denied' : 'failed';
}

export interface AuditFields {
  action: string;
  entityType?: string | null;
  entityId?: string | null;
  summary: string;
  outcome: AuditOutcome;
  /** Overrides the request's actor (a failed sign-in has none yet). */
  actor?: { type: string; id: string | null; name?: string | null };
}

/** Records one entry for this request's actor. */
export async function audit(
  c: Context<AppEnv>,
  options: AuthOptions,
  fields: AuditFields,
): Promise<void> {
  const actor = c.get('actor');
  const member = c.get('staff');
  await recordAudit(options.db, {
    at: options.clock.now(),
    actorType: fields.actor?.type ?? actor?.type ?? 'ANONYMOUS',
    actorId: fields.actor ? fields.actor.id : (actor?.id ?? null),
    actorName: fields.actor ? (fields.actor.name ?? null) : (member?.name ?? null),
    action: fields.action,
    entityType: fields.entityType ?? null,
    entityId: fields.entityId ?? null,
    summary: fields.summary,
    outcome: fields.outcome,
    requestId: c.get('requestId'),
    ip: clientIp(c, options.trustProxy),
  });
  c.set('audited', true);
}

/**
 * One audit middleware for /api and /auth, outermost so that refusals by the
 * checks after it are recorded too. What it records is what the matched
 * route declares (`audit` in its `rule`, `http/route-rule.ts`): the action,
 * the entity, a summary of a success. A route whose handler writes its own
 * rows (sign-in, staff, reveal) declares `selfRecorded`, and this records only
 * the refusals that left no row (a malformed id or body, a role or CSRF
 * refusal), so every request that reaches an audited route leaves one row,
 * whatever its input. A mutation no route answers is recorded by method and
 * path. Anonymous refusals are left out, except sign-in's.
 *
 * It reads nothing before the checks run: a route's `fromRequest` facts are
 * read from the body after them, and only for a caller they identified, so an
 * anonymous caller's body is never buffered (1,500 stalled anonymous 1 MiB
 * bodies once took the server to 1.8 GB).
 */
export function auditRequests(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const matched = ruleOf(c);
    const declared = matched ? matched.rule.audit : unmatchedMutation(c);
    if (!declared) return next();
    await next();
    const status = c.res.status;
    if (c.get('audited') || (declared.selfRecorded && status < 400)) return;
    // Anonymous refusals (401 without any actor) are not worth a row each.
    if (!c.get('actor') && !declared.anonymous) return;
    let action = declared.action;
    let note: string | undefined;
    if (declared.fromRequest) {
      // Only now, and only for a caller the checks identified: an anonymous body is never read.
      const facts = declared.fromRequest(await requestJson(c), c);
      action = facts.action ?? action;
      note = facts.note;
    }
    const parsed: unknown = await c.res
      .clone()
      .json()
      .catch(() => ({}));
    // Only an object answer has fields to record; anything else (null, a list) has none.
    const body = (
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
    ) as Record<string, unknown>;
    const outcome = outcomeOf(status);
    const fromPath =
      matched && declared.entityParam ? paramOf(matched, c.req.path, declared.entityParam) : null;
    const summary =
      outcome === 'success'
        ? (declared.summary?.(body, action) ?? 'Succeeded')
        : refusalSummary(status, body);
    await audit(c, options, {
      action,
      entityType: declared.entityType,
      entityId:
        str(body['entityId']) ?? str(body['id']) ?? (await entityOfPath(declared, fromPath, c)),
      summary: note === undefined ? summary : `${summary}; ${note}`,
      outcome,
    });
  };
}

/** The entity a refusal names through the path: what the rule maps it to, else the parameter. */
async function entityOfPath(
  declared: AuditRule,
  fromPath: string | null,
  c: Context<AppEnv>,
): Promise<string | null> {
  if (!fromPath) return null;
  // A lookup that fails (an id no record could have) leaves the row under the parameter.
  const mapped = await declared.entityOf?.(fromPath, c).catch(() => null);
  return mapped ?? fromPath;
}

/** A mutation under /api that no route answers: still recorded, by method and path. */
function unmatchedMutation(c: Context<AppEnv>): AuditRule | false {
  const method = c.req.method.toUpperCase();
  if (!isMutation(method) || !c.req.path.startsWith('/api/')) return false;
  const path = c.req.path.startsWith(`${API_PREFIX}/`)
    ? c.req.path.slice(API_PREFIX.length)
    : c.req.path;
  return { action: `${method} ${path}`, entityType: 'UNKNOWN' };
}

/**
 * The request's JSON body, as the route read it (or read now, within the
 * body's limits, when a refusal came before the route read it); null if it
 * is not JSON or did not arrive in time.
 */
async function requestJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return JSON.parse(await readBodyText(c)) as unknown;
  } catch {
    return null;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

// A refusal message could echo a submitted value; long digit runs are masked on the way in.
function refusalSummary(status: number, body: Record<string, unknown>): string {
  return `Refused with ${status}${str(body['code']) ? ` ${str(body['code'])}` : ''}: ${maskNumbersIn(str(body['message']) ?? 'no message')}`;
}
