import type { Context, MiddlewareHandler } from 'hono';
import { maskAccountNumber } from '../../contract/bank-account.ts';
import { AUDIT_REASON_HEADER } from '../../contract/common.ts';
import { API_PREFIX } from '../../contract/paths.ts';
import type { AppEnv } from '../http/app-env.ts';
import { recordAudit, type AuditOutcome } from './audit.store.ts';
import { clientIp, isMutation } from './csrf.ts';
import type { AuthOptions } from './session-auth.ts';

/**
 * Writing the audit trail (DESIGN.md §5): every mutation and every reveal —
 * who, what, when, outcome, request id. Custody API mutations are recorded
 * generically after the handler from the method, path and response; sign-in,
 * staff management and reveals record themselves through `audit()`.
 */

export function outcomeOf(status: number): AuditOutcome {
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
    at: options.clock(),
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

interface MutationKind {
  action: string;
  entityType: string;
}

/** Custody API mutations by path; an unknown one is still recorded, by method and path. */
function describeMutation(method: string, apiPath: string): MutationKind | null {
  if (method === 'POST' && apiPath === '/transactions/estimate_fee/') return null; // a read sent as POST
  if (method === 'POST' && apiPath === '/transactions/')
    return { action: 'transaction.create', entityType: 'TRANSACTION' };
  if (method === 'POST' && apiPath === '/transactions/replace_transaction/')
    return { action: 'transaction.replace', entityType: 'TRANSACTION' };
  if (method === 'POST' && apiPath === '/bank_accounts/')
    return { action: 'bank_account.create', entityType: 'BANK_ACCOUNT' };
  if (method === 'POST' && /^\/change_requests\/approvals\/[^/]+\/action\/$/.test(apiPath))
    return { action: 'change_request.decide', entityType: 'CHANGE_REQUEST' };
  return { action: `${method} ${apiPath}`, entityType: 'UNKNOWN' };
}

// A refusal message could echo a submitted value; long digit runs are masked on the way in.
function scrub(text: string): string {
  return text.replace(/[A-Z]{2}\d{2}[A-Z0-9 ]{8,}|\d[\d -]{4,}\d/g, (m) => maskAccountNumber(m));
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function successSummary(
  kind: MutationKind,
  body: Record<string, unknown>,
  decision: string | undefined,
): string {
  if (kind.entityType === 'TRANSACTION') {
    const parts = [
      str(body['category']),
      str(body['amount']),
      str(body['asset']),
      str(body['blockChain']),
    ].filter(Boolean);
    return `${kind.action === 'transaction.replace' ? 'Replacement' : 'Transaction'} ${parts.join(' ')} created, status ${str(body['status']) ?? 'unknown'}`;
  }
  if (kind.entityType === 'BANK_ACCOUNT') {
    const parts = [
      str(body['paymentMethod']),
      str(body['country']),
      maskAccountNumber(str(body['accountNumber'])),
    ].filter(Boolean);
    return `Bank account ${parts.join(' ')} created, status ${str(body['status']) ?? 'unknown'}`;
  }
  if (kind.entityType === 'CHANGE_REQUEST') {
    return `Change request ${decision ?? 'decided'}${str(body['status']) ? `, status ${str(body['status'])}` : ''}`;
  }
  return 'Succeeded';
}

/** The console's audited routes by path, for requests refused before they record themselves. */
function describeConsoleRequest(
  method: string,
  path: string,
): (MutationKind & { entityId: string | null }) | null {
  // Only a POST signs in or out; any other method there is a route miss, not an attempt.
  if (method === 'POST' && path === '/auth/login')
    return { action: 'auth.login', entityType: 'STAFF', entityId: null };
  if (method === 'POST' && path === '/auth/logout')
    return { action: 'auth.logout', entityType: 'STAFF', entityId: null };
  const reveal = /^\/api\/console\/bank_accounts\/([^/]*)\/reveal\/?$/.exec(path);
  if (method === 'GET' && reveal)
    return {
      action: 'bank_account.reveal',
      entityType: 'BANK_ACCOUNT',
      entityId: safeDecode(reveal[1] ?? ''),
    };
  if (!isMutation(method) || !path.startsWith('/api/console/')) return null;
  if (method === 'POST' && /^\/api\/console\/staff\/?$/.test(path))
    return { action: 'staff.create', entityType: 'STAFF', entityId: null };
  const staff = /^\/api\/console\/staff\/([^/]*)\/?$/.exec(path);
  if (method === 'PATCH' && staff)
    return { action: 'staff.update', entityType: 'STAFF', entityId: safeDecode(staff[1] ?? '') };
  return { action: `${method} ${path}`, entityType: 'UNKNOWN', entityId: null };
}

/**
 * Sign-in, staff management and reveals record their own rows; this records
 * the requests to them that were refused before they could (a malformed id or
 * body, a role or CSRF refusal), so every request that reaches an audited
 * route leaves one row, whatever its input. Anonymous refusals are left out as
 * on the custody API, except sign-in, which is anonymous by nature.
 */
export function auditConsoleRefusals(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const kind = describeConsoleRequest(c.req.method.toUpperCase(), c.req.path);
    await next();
    if (!kind || c.get('audited') || c.res.status < 400) return;
    if (!c.get('actor') && kind.action !== 'auth.login') return;
    const parsed: unknown = await c.res
      .clone()
      .json()
      .catch(() => ({}));
    const body = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    await audit(c, options, {
      action: kind.action,
      entityType: kind.entityType,
      entityId: kind.entityId || null,
      summary: refusalSummary(c.res.status, body),
      outcome: outcomeOf(c.res.status),
    });
  };
}

function refusalSummary(status: number, body: Record<string, unknown>): string {
  return `Refused with ${status}${str(body['code']) ? ` ${str(body['code'])}` : ''}: ${scrub(str(body['message']) ?? 'no message')}`;
}

/** After-the-handler recorder for /api/external mutations by a known caller. */
export function auditCustodyMutations(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method.toUpperCase();
    if (!isMutation(method)) return next();
    const apiPath = c.req.path.slice(API_PREFIX.length);
    const kind = describeMutation(method, apiPath);
    if (!kind) return next();
    let decision: string | undefined;
    if (kind.entityType === 'CHANGE_REQUEST') {
      // Only the decision is read from the body: never a signature or a reason's free text.
      const body = (await c.req.raw
        .clone()
        .json()
        .catch(() => ({}))) as Record<string, unknown> | null;
      // JSON `null` (or any non-object) is a bad body for the route to refuse, not a crash here.
      const action = str(body && typeof body === 'object' ? body['action'] : undefined);
      decision = action === 'approve' ? 'approved' : action === 'reject' ? 'rejected' : undefined;
      if (decision) kind.action = `change_request.${action}`;
    }
    const skipReason =
      kind.action === 'transaction.create' ? await skippedSimulation(c) : undefined;
    await next();
    // Anonymous refusals (401 without any actor) are not worth a row each; everything else is.
    if (!c.get('actor')) return;
    const status = c.res.status;
    const parsed: unknown = await c.res
      .clone()
      .json()
      .catch(() => ({}));
    // Only an object answer has fields to record; anything else (null, a list) has none.
    const body = (
      parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
    ) as Record<string, unknown>;
    const outcome = outcomeOf(status);
    const pathId = /^\/change_requests\/approvals\/([^/]+)\/action\/$/.exec(apiPath)?.[1];
    const entityId =
      str(body['entityId']) ?? str(body['id']) ?? (pathId ? safeDecode(pathId) : null);
    const summary =
      outcome === 'success' ? successSummary(kind, body, decision) : refusalSummary(status, body);
    await audit(c, options, {
      action: kind.action,
      entityType: kind.entityType,
      entityId,
      summary: skipReason === undefined ? summary : `${summary}; ${skipReason}`,
      outcome,
    });
  };
}

const MAX_REASON_LENGTH = 500;

/**
 * For a create that asks to skip preprocessing simulation (7b: "use only with
 * an explicit reason"), the reason the member wrote, as the audit row will say it.
 */
async function skippedSimulation(c: Context<AppEnv>): Promise<string | undefined> {
  const body: unknown = await c.req.raw
    .clone()
    .json()
    .catch(() => null);
  const options =
    body && typeof body === 'object' ? (body as Record<string, unknown>)['creationOptions'] : null;
  if (!options || typeof options !== 'object') return undefined;
  if ((options as Record<string, unknown>)['skipPreprocessSimulation'] !== true) return undefined;
  const raw = c.req.header(AUDIT_REASON_HEADER) ?? '';
  const reason = scrub(safeDecode(raw).trim().slice(0, MAX_REASON_LENGTH));
  return reason
    ? `preprocessing simulation skipped, reason: "${reason}"`
    : 'preprocessing simulation skipped, no reason given';
}

/** A path segment as the client meant it; a malformed escape (`%ZZ`) is kept as sent, never a crash. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
