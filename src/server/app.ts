import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import { ERROR_CODES } from '#contract/common.ts';
import { API_PREFIX } from '#contract/endpoint.ts';
import { backendInfo } from '#contract/endpoints/reference.ts';
import { apiClientAuth } from './auth/api-client-auth.ts';
import { accountRoutes } from './auth/account.routes.ts';
import { audit, auditRequests } from './auth/audit.ts';
import { clientIp, isHttps } from './auth/csrf.ts';
import type { ApprovalSigning, SecondFactorPolicy } from './auth/second-factor.ts';
import { signingRoutes } from './capabilities/approvals/signing/signing.routes.ts';
import { currentIntentOf } from './capabilities/approvals/card/card.ts';
import type { ApprovableKind } from './capabilities/approvals/core/kind.ts';
import { heldDecisionRoutes } from './capabilities/approvals/core/held.routes.ts';
import { APPROVABLE_KINDS } from './capabilities/approvals/core/kinds.ts';
import { staffChangeRoutes } from './capabilities/approvals/staff-change/staff-change.routes.ts';
import { consoleApiAuth, custodyApiAuth, type AuthOptions } from './auth/session-auth.ts';
import { readSessionCookie } from './auth/session-cookie.ts';
import { sessionRoutes } from './auth/session.routes.ts';
import { ssoSettingsRoutes } from './capabilities/approvals/sso-change/sso-settings.routes.ts';
import { apiUserRoutes } from './console/api-users.routes.ts';
import { ssoSignInRoutes } from './auth/sso/sign-in.routes.ts';
import { scimRoutes } from './auth/sso/scim.routes.ts';
import { resolveSession } from './auth/session.store.ts';
import { consoleRoutes } from './wiring/console.routes.ts';
import { custodyWebhookRoutes } from './capabilities/webhooks/receiver.routes.ts';
import { OPENAPI_PATH, openApiRoutes } from './http/openapi.ts';
import { flagLinkedDecisions } from './console/linked-accounts.ts';
import { scopedBackend } from './wiring/scoped-backend.ts';
import { applyPolicies } from './capabilities/policies/guard.ts';
import {
  createCustodyEventSink,
  createLiveHub,
  type CustodyEventSink,
  type LiveHub,
} from './capabilities/live/index.ts';
import { liveRoutes } from './capabilities/live/live.routes.ts';
import { raiseUpstreamApprovalEvents } from './capabilities/live/upstream-events.ts';
import { SECURITY_HEADER_RECORDS, securityHeaders } from './http/security-headers.ts';
import { systemClock, type Clock } from './clock.ts';
import type { CustodyBackend } from './custody/backend.ts';
import { custodyRoutes } from './wiring/custody.routes.ts';
import type { Database, DatabaseHandle } from './db/client.ts';
import { ReadCache } from './db/read-cache.ts';
import type { AppConfig } from './env.ts';
import { ApiError } from '#contract/api-error.ts';
import {
  BODY_READ_TIMEOUT_MS,
  limitBody,
  MAX_API_BODY_BYTES,
  MAX_AUTH_BODY_BYTES,
} from './http/body-limit.ts';
import { cachedProbe } from './http/cached-probe.ts';
import { compressJson } from './http/compress-json.ts';
import { knownHostOnly, originPolicy, type OriginPolicy } from './http/public-origin.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  dataExceptionMessage,
  isDatabaseUnavailable,
  isDataException,
} from './http/database-errors.ts';
import type { AppEnv } from './http/app-env.ts';
import { requestIds, requestLog } from './http/request-log.ts';
import { mount } from './http/mount.ts';
import type { PageRenderer } from './http/server-render.ts';
import { spaRoutes, type PageVisitor } from './http/spa.ts';

export interface CreateAppOptions {
  config: Pick<AppConfig, 'staticDir'>;
  /**
   * The server render of signed-in pages (http/server-render.ts); default:
   * the build's dist/ssr beside staticDir. Tests pass the source entry.
   */
  pageRenderer?: () => Promise<PageRenderer | undefined>;
  backend: CustodyBackend;
  /**
   * The public origin: the only Host answered, the only Origin of a session's
   * mutation (http/public-origin.ts). Read per request, since the port is
   * known only once listening. Default: http://localhost, what app.request() addresses.
   */
  origin?: () => OriginPolicy;
  /** How long a request body may take to arrive once read (http/body-limit.ts); tests shorten it. */
  bodyReadTimeoutMs?: number;
  /** Checked by /healthz; PostgreSQL's LISTEN wakes the event stream (capabilities/live/). */
  database: Pick<DatabaseHandle, 'ping' | 'driver' | 'listen' | 'foreground'>;
  /**
   * The event stream's hub (`GET /api/console/events`); the server passes its
   * own to end the streams on shutdown. Default: one over `auth.db`.
   */
  live?: LiveHub;
  /**
   * The sandbox's lifecycle simulator, when this server runs one: /readyz
   * adds how far behind due time it is (engine/simulator.ts, simulatorLag).
   */
  simulator?: { lag(): Promise<{ due: number; oldestDueSeconds: number }> };
  logger: Logger;
  /**
   * The console's receiver of custody webhooks (/api/webhooks/custody/):
   * CUSTODY_WEBHOOK_KEY (none: it accepts nothing) and where accepted events
   * go (default: live updates' store, `console.custody_events`, which every
   * server's event stream tails).
   */
  custodyWebhooks?: { key: string | null; sink?: CustodyEventSink };
  /**
   * Approvable kinds beyond the core's own (`APPROVABLE_KINDS`,
   * capabilities/approvals/core/): a test's kind gets the card, the signed
   * intent, votes and quorum, the inbox and the audit from the core.
   */
  approvableKinds?: readonly ApprovableKind[];
  /** Which team chat webhooks may be added (WEBHOOK_ALLOW_PRIVATE_TARGETS); default: public ones only. */
  chatTargets?: { allowPrivate: boolean };
  /** Staff sign-in, sessions and the audit log, over the console's tables. */
  auth: {
    db: Database;
    /** Tests pass a clock they move by hand; sessions expire against it. */
    clock?: Clock;
    /** TRUST_PROXY: how many proxies in front set X-Forwarded-Proto/-Host/-For (false: none). */
    trustProxy?: AuthOptions['trustProxy'];
    /** Sandbox mode: the demo staff are listed by GET /auth/demo-accounts. */
    demoAccounts?: boolean;
    /** STAFF_SECOND_FACTOR: who must have a second factor to sign in (default `privileged`). */
    secondFactor?: SecondFactorPolicy;
    /** STAFF_PASSKEY_PROMPT: remind approvers and admins without a passkey (default on). */
    passkeyPrompt?: boolean;
    /** APPROVAL_SIGNING: which staff decisions are signed with a passkey (default `registered`). */
    approvalSigning?: ApprovalSigning;
  };
}

function isApiPath(path: string): boolean {
  return (
    path === '/api' || path.startsWith('/api/') || path === '/auth' || path.startsWith('/auth/')
  );
}

/**
 * Composes the console server: request ids and logging, /healthz, the custody
 * API under /api/external, and the SPA for everything else. Errors have one
 * shape, `{message, code}`, and a 500 never reveals what went wrong inside.
 */
const LOCAL_ORIGIN = originPolicy('http://localhost');

export function createApp({
  config,
  pageRenderer,
  backend,
  database,
  simulator,
  logger,
  auth,
  live,
  custodyWebhooks,
  approvableKinds: extraKinds = [],
  origin = () => LOCAL_ORIGIN,
  bodyReadTimeoutMs = BODY_READ_TIMEOUT_MS,
  chatTargets,
}: CreateAppOptions) {
  const app = new Hono<AppEnv>();
  const clock = auth.clock ?? systemClock;
  // Status changes pushed to the signed-in browsers, each held to its member's sub-orgs; a
  // session that ends here ends its streams at once (auth's endSessionStreams).
  const hub =
    live ??
    createLiveHub({
      backend: backend.kind,
      database: { db: auth.db, ...(database.listen ? { listen: database.listen } : {}) },
      clock,
      logger,
    });
  const authOptions: AuthOptions = {
    db: auth.db,
    clock,
    trustProxy: auth.trustProxy ?? false,
    demoAccounts: auth.demoAccounts ?? false,
    secondFactor: auth.secondFactor ?? 'privileged',
    passkeyPrompt: auth.passkeyPrompt ?? true,
    approvalSigning: auth.approvalSigning ?? 'registered',
    liveStreams: hub,
  };
  // Staff see only their sub-organizations, whichever backend answers; a decision between
  // members linked by member management is flagged in the audit log.
  // Approval policies judge what is created and collect decisions until the frozen rule is met.
  // Upstream, the approval events of what is proposed and decided here (capabilities/live/).
  const approvableKinds = [...APPROVABLE_KINDS, ...extraKinds];
  const judged = applyPolicies(scopedBackend(backend), {
    db: auth.db,
    clock: authOptions.clock,
    driver: database.driver,
    kinds: approvableKinds,
    currentIntent: (inner, ctx, entityId) =>
      currentIntentOf(
        { backend: inner, ctx, db: auth.db, clock: authOptions.clock, memberId: null },
        entityId,
        approvableKinds,
      ),
  });
  const custody = flagLinkedDecisions(
    backend.kind === 'upstream'
      ? raiseUpstreamApprovalEvents(judged, { db: auth.db, clock: authOptions.clock, logger })
      : judged,
    authOptions,
  );

  // The server's own id for every request; a caller's well-formed X-Request-Id is logged beside it.
  app.use(requestIds());
  app.use(requestLog(logger));
  app.use(securityHeaders((c) => isHttps(c, authOptions.trustProxy)));
  // Sessions, transaction reads and reference data (vaults, assets, sub-orgs) reused while
  // nothing commits (db/read-cache.ts).
  const reads = new ReadCache(auth.db);
  app.use('/api/*', reads.middleware());
  app.use('/auth/*', reads.middleware());
  // JSON answers of 1 KB and more (a page of 20 transactions is ~15 KB) go
  // brotli- or gzip-encoded. Outside the checks below: it sees only final answers.
  // Their security headers are made in the one record of the answer's headers.
  const jsonAnswers = compressJson({
    securityHeaders: (c) =>
      SECURITY_HEADER_RECORDS[isHttps(c, authOptions.trustProxy) ? 'https' : 'http'],
  });
  app.use('/api/*', jsonAnswers);
  app.use('/auth/*', jsonAnswers);
  // API answers can hold full bank account numbers, and /auth answers a session's
  // CSRF token (or say whether one exists): no shared or browser cache keeps them.
  const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
    await next();
    // On the answer itself: c.header() after a handler rebuilds the answer from its body stream.
    c.res.headers.set('Cache-Control', 'no-store');
  };
  app.use('/api/*', noStore);
  app.use('/auth/*', noStore);

  app.get('/healthz', async (c) => {
    try {
      await database.ping();
      return c.json({ status: 'ok', db: 'ok', driver: database.driver, backend: backend.kind });
    } catch (error) {
      c.get('log').error({ err: error }, 'health check: database did not answer');
      return c.json(
        { status: 'unavailable', db: 'error', driver: database.driver, backend: backend.kind },
        503,
      );
    }
  });

  // Readiness, unlike /healthz: the database and the custody backend both answer. The
  // backend's probe (upstream: a signed read) runs once at a time and its outcome answers
  // for 10 s: anonymous callers cannot spend the API user's rate limit.
  const backendReady = backend.checkReady
    ? cachedProbe(() => backend.checkReady?.() ?? Promise.resolve(), authOptions.clock)
    : undefined;
  app.get('/readyz', async (c) => {
    try {
      await database.ping();
    } catch (error) {
      c.get('log').warn({ err: error }, 'readiness: database did not answer');
      return c.json({ status: 'unavailable', reason: 'the database did not answer' }, 503);
    }
    try {
      await backendReady?.();
    } catch (error) {
      const reason =
        error instanceof ApiError ? error.message : 'the custody backend did not answer';
      c.get('log').warn(
        { code: error instanceof ApiError ? error.code : undefined },
        'readiness: custody backend not ready',
      );
      return c.json({ status: 'unavailable', reason, backend: backend.kind }, 503);
    }
    // The simulator's lag is detail for an operator, never a reason to take the server out.
    const lag = await simulator?.lag().catch((error: unknown) => {
      c.get('log').warn({ err: error }, 'readiness: the simulator lag could not be read');
      return undefined;
    });
    return c.json({ status: 'ready', backend: backend.kind, ...(lag ? { simulator: lag } : {}) });
  });

  // Health checks above answer whatever Host a load balancer probes with; nothing below does.
  app.use(knownHostOnly(origin, authOptions.trustProxy));

  // Reads nothing: refuses a declared length above the limit and sets the limits the one
  // body reader keeps (size, and time to arrive). The caller is not identified yet, so like
  // other anonymous refusals a 413 here leaves no audit row.
  app.use('/auth/*', limitBody(MAX_AUTH_BODY_BYTES, bodyReadTimeoutMs));
  app.use('/api/*', limitBody(MAX_API_BODY_BYTES, bodyReadTimeoutMs));
  app.use('/scim/*', limitBody(MAX_API_BODY_BYTES, bodyReadTimeoutMs));
  // Before every check and route it watches: what each route declares is audited, refusals
  // too. It reads a body only after the checks, for a caller they identified; the checks read
  // none before the caller is known (an API client's token is verified from its headers first).
  app.use('/auth/*', auditRequests(authOptions));
  app.use('/api/*', auditRequests(authOptions));
  app.route('/', sessionRoutes(authOptions));
  app.route('/', ssoSignInRoutes(authOptions));
  // An Api-Key request becomes its API user here (sandbox only; upstream refuses API clients).
  app.use(
    `${API_PREFIX}/*`,
    apiClientAuth(backend.apiClients, {
      clock: authOptions.clock,
      clientIp: (c) => clientIp(c, authOptions.trustProxy),
      auditRefusal: (c, summary) =>
        audit(c, authOptions, {
          action: 'api_user.refused',
          entityType: 'api_user',
          entityId: c.get('actor')?.id ?? null,
          summary,
          outcome: 'denied',
        }),
    }),
  );
  // API-client tokens (Api-Key) must be checked before this: it trusts an actor already set.
  app.use(`${API_PREFIX}/*`, custodyApiAuth(authOptions));
  // A member's decision is held to the approval card they were shown, signed with their passkey
  // where they must sign (capabilities/approvals/signing/).
  const signing = { auth: authOptions, backend: custody, kinds: approvableKinds };
  app.route(API_PREFIX, custodyRoutes(custody, signing));
  app.use('/api/console/*', consoleApiAuth(authOptions));
  app.use(OPENAPI_PATH, consoleApiAuth(authOptions));
  // Which custody service staff act on: the SPA's header badge.
  mount(app, '', backendInfo, () =>
    Promise.resolve({ kind: backend.kind, host: backend.upstreamHost ?? null }),
  );
  app.route(
    '/api/console',
    consoleRoutes(authOptions, custody, approvableKinds, database.driver, chatTargets),
  );
  app.route('/api/console', signingRoutes(signing));
  app.route('/api/console', heldDecisionRoutes(signing));
  app.route('/api/console', staffChangeRoutes(signing));
  app.route('/api/console', liveRoutes(hub));
  // The signed-in member's own password and second factor.
  app.route('/api/console', accountRoutes(authOptions));
  // Single sign-on and SCIM settings (auth/sso/).
  app.route('/api/console', ssoSettingsRoutes(authOptions));
  // API users and their keys (sandbox only): the API keys page.
  app.route('/api/console', apiUserRoutes(authOptions, backend));
  // SCIM 2.0 provisioning: a bearer token an admin made, the protocol's own errors.
  app.route('/scim/v2', scimRoutes(authOptions));
  // Custody webhooks: no session, the signature is the check (capabilities/webhooks/).
  app.route(
    '/',
    custodyWebhookRoutes({
      clock: authOptions.clock,
      key: custodyWebhooks?.key ?? null,
      sink: custodyWebhooks?.sink ?? createCustodyEventSink(auth.db, authOptions.clock),
    }),
  );
  // Every declared endpoint, as an OpenAPI document (contract/endpoints/).
  app.route('/api', openApiRoutes());
  // A server render reads as the visitor through the whole app, checks and all; it is
  // planned, and a page's reads preloaded, only for a session that resolves (one lookup,
  // from the read cache when it can): a made-up cookie gets the plain shell.
  // Its member's colour scheme goes on the page's <html> (http/spa.ts).
  const liveSession = async (c: Context<AppEnv>): Promise<PageVisitor | null | undefined> => {
    const token = readSessionCookie(c, authOptions.trustProxy);
    if (!token) return null;
    try {
      const found = await reads.run(() => resolveSession(auth.db, token, authOptions.clock.now()));
      return found.ok ? { colorScheme: found.member.colorScheme } : null;
    } catch (error) {
      // The page is the shell; the browser's own reads get the real answer (a 503, say).
      c.get('log').warn({ err: error }, 'page: the session could not be looked up');
      return undefined;
    }
  };
  app.route(
    '/',
    spaRoutes(config.staticDir, {
      request: (input, init, env) => app.request(input, init, env),
      liveSession,
      answersBuiltHere: backend.kind !== 'upstream',
      ...(pageRenderer ? { renderer: pageRenderer } : {}),
      ...(database.foreground ? { foreground: database.foreground } : {}),
    }),
  );

  app.notFound((c) => {
    if (isApiPath(c.req.path)) {
      const hint = c.req.path.endsWith('/') ? '' : ' (custody API paths end with a slash)';
      return c.json(
        {
          message: `No route for ${c.req.method} ${c.req.path}${hint}`,
          code: ERROR_CODES.routeNotFound,
        },
        404,
      );
    }
    return c.text('Not found\n', 404);
  });

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      // The contract's class holds any number; the server only ever throws 4xx/5xx with a body.
      return c.json(error.toBody(), error.status as ContentfulStatusCode);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(
        { message: error.message || 'Bad request', code: ERROR_CODES.validation },
        error.status,
      );
    }
    const log = c.get('log') ?? logger;
    if (isDatabaseUnavailable(error)) {
      // Not a bug and not the caller's doing: the same request succeeds once the database is back.
      log.warn({ err: error, method: c.req.method, path: c.req.path }, 'database unavailable');
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return c.json(
        {
          message: 'The database is not available at the moment; try again in a few seconds',
          code: ERROR_CODES.databaseUnavailable,
        },
        503,
      );
    }
    if (isDataException(error)) {
      // Logged as an error all the same: it may be a value we computed, not one we were sent.
      log.error({ err: error, method: c.req.method, path: c.req.path }, 'database refused a value');
      return c.json({ message: dataExceptionMessage(error), code: ERROR_CODES.validation }, 400);
    }
    log.error({ err: error, method: c.req.method, path: c.req.path }, 'unhandled error');
    return c.json({ message: 'Internal error', code: ERROR_CODES.internal }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
