import { startRunExecutor } from './capabilities/approvals/payment-run/executor.ts';
import { startRunScheduler } from './capabilities/approvals/payment-run/scheduler.ts';
import { startSsoSessionCheck } from './auth/sso/session-check.ts';
import { APPROVABLE_KINDS } from './capabilities/approvals/core/kinds.ts';
import { applyPolicies } from './capabilities/policies/guard.ts';
import { scopedBackend } from './wiring/scoped-backend.ts';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { createLiveHub, liveSources, type LiveHub } from './capabilities/live/index.ts';
import { namedSources, startNotifier } from './capabilities/notifications/notifier.ts';
import { stuckTransactions } from './capabilities/notifications/sandbox/stuck.ts';
import { systemClock, type Clock } from './clock.ts';
import { defaultPublicUrl, originPolicy, type OriginPolicy } from './http/public-origin.ts';
import { HTTP_SERVER_TIMEOUTS } from './http/server-timeouts.ts';
import { threadedRenderer } from './http/threaded-renderer.ts';
import { seedDemoStaff } from './auth/staff-demo.ts';
import type { CustodyBackend } from './custody/backend.ts';
import {
  simulatorLag,
  startSimulator,
  type RunningSimulator,
} from './custody/sandbox/engine/simulator.ts';
import { startSimulatorThread } from './custody/sandbox/engine/simulator-thread.ts';
import {
  startWebhookDispatcher,
  type RunningDispatcher,
} from './capabilities/webhooks/sandbox/dispatcher.ts';
import { createSandboxBackend } from './wiring/sandbox-backend.ts';
import { seedSandbox } from './custody/sandbox/seed.ts';
import { createUpstreamBackend } from './wiring/upstream-backend.ts';
import { openDatabase, type DatabaseHandle, type MigrationTrack } from './db/client.ts';
import { useReadCache } from './db/read-cache.ts';
import { beginFirstStart, finishFirstStart } from './first-start.ts';
import type { AppConfig } from './env.ts';

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * Step transactions the simulator runs at once on PostgreSQL, over a pool of
 * its own in its own thread. One at a time fell behind under load (988
 * steps due, the oldest 43 s overdue).
 */
const SIMULATOR_LANES = 4;

/**
 * Everything `npm start` does after reading the config: open the database,
 * migrate, seed an empty sandbox, build the app and listen. Separate from
 * main.ts so tests can start and stop a real server in-process.
 */
export async function startServer(
  config: AppConfig,
  logger: Logger,
  options: {
    /**
     * Where PGlite runs: a thread of its own (the default, what `npm start`
     * does), or this one, for a test whose proof is what the server answers
     * over a database that something else wrote, not the thread: a worker
     * thread costs its start (loading the server's modules and PGlite again)
     * every time a test starts a server.
     */
    pgliteThread?: 'worker' | 'this';
  } = {},
): Promise<RunningServer> {
  // PGlite in a thread of its own: the event loop serving requests never waits on it.
  const database = await openDatabase(config, logger, {
    pgliteThread: options.pgliteThread ?? 'worker',
  });
  // The one clock every part of the server reads (clock.ts).
  const clock = systemClock;
  let simulator: RunningSimulator | undefined;
  let webhooks: RunningDispatcher | undefined;
  let runs: { stop(): Promise<void> } | undefined;
  let schedules: { stop(): Promise<void> } | undefined;
  try {
    await migrateAndSeed(database, config, clock, logger);

    let backend: CustodyBackend;
    if (config.custody.backend === 'sandbox') {
      const webhookTargets = { allowPrivate: config.webhooks.allowPrivateTargets };
      backend = createSandboxBackend({
        db: database.db,
        clock,
        timeScale: config.sandbox.timeScale,
        webhookTargets,
        webhookTimeoutMs: config.webhooks.timeoutMs,
        rampRateTolerancePercent: config.sandbox.rampRateTolerancePercent,
      });
      // Beside the simulator, never inside it: a step only queues its webhooks (the outbox),
      // and this sends them (capabilities/webhooks/sandbox/dispatcher.ts).
      webhooks = startWebhookDispatcher({
        db: database.db,
        clock,
        logger,
        targets: webhookTargets,
        timeoutMs: config.webhooks.timeoutMs,
        ...(database.listen ? { listen: database.listen.bind(database) } : {}),
      });
      // Approved payment runs, row by row; it resumes whatever an earlier start left half done.
      // Its rows are made through the policy guard (which knows them by the executor's own
      // context) and approved as the run was; sandbox only, as the custody API has no runs.
      const judged = applyPolicies(scopedBackend(backend), {
        db: database.db,
        clock,
        driver: database.driver,
        kinds: APPROVABLE_KINDS,
      });
      runs = startRunExecutor({
        db: database.db,
        clock,
        logger,
        inner: backend,
        rateTolerancePercent: config.sandbox.rampRateTolerancePercent,
        judged,
      });
      // Scheduled runs' occurrences, each made once and put up for approval as a new run.
      schedules = startRunScheduler({
        db: database.db,
        clock,
        logger,
        backend: judged,
        driver: database.driver,
      });
      // Every lifecycle lives in the database, so this resumes whatever the last run left in flight.
      // On PGlite it runs in the database's thread, batching steps (db/pglite-worker.ts); on
      // PostgreSQL in a thread of its own, SIMULATOR_LANES step transactions at once over a
      // pool of its own (engine/simulator-thread.ts).
      simulator = database.simulateInDatabaseThread
        ? await database.simulateInDatabaseThread(config.sandbox.timeScale)
        : config.databaseUrl
          ? await startSimulatorThread({
              databaseUrl: config.databaseUrl,
              timeScale: config.sandbox.timeScale,
              db: database.db,
              logger,
              lanes: SIMULATOR_LANES,
            })
          : startSimulator({
              db: database.db,
              clock,
              timeScale: config.sandbox.timeScale,
              logger,
            });
    } else {
      backend = createUpstreamBackend({ ...config.custody, db: database.db, logger, clock });
    }

    useReadCache(config.readCache);
    // Set once listening: the default public origin needs the port actually bound.
    const listening: { origin?: OriginPolicy } = {};
    // The browsers' event streams: ended before the server closes, or close() would wait on them.
    const live = createLiveHub({ backend: config.custody.backend, database, clock, logger });
    // Pages are rendered in a thread of their own, off the one that answers every request.
    const render = threadedRenderer(config.staticDir, logger);
    const app = createApp({
      live,
      config,
      pageRenderer: render.renderer,
      origin: () => {
        if (!listening.origin) throw new Error('request before the server listened');
        return listening.origin;
      },
      backend,
      database,
      ...(simulator ? { simulator: { lag: () => simulatorLag(database.db, clock.now()) } } : {}),
      logger,
      custodyWebhooks: { key: config.webhooks.receiverKey },
      chatTargets: { allowPrivate: config.webhooks.allowPrivateTargets },
      auth: {
        db: database.db,
        clock,
        trustProxy: config.trustProxy,
        demoAccounts: config.custody.backend === 'sandbox',
        secondFactor: config.secondFactor,
        passkeyPrompt: config.passkeyPrompt,
        approvalSigning: config.approvalSigning,
      },
    });
    const server = await listen(app.fetch, config.host, config.port);
    const port = (server.address() as AddressInfo).port;
    listening.origin = originPolicy(config.publicUrl ?? defaultPublicUrl(config.host, port), {
      host: config.host,
      port,
    });
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    // Single sign-on's sessions end soon after the provider stops letting their member in.
    const ssoCheck = startSsoSessionCheck(
      {
        db: database.db,
        clock,
        trustProxy: config.trustProxy,
        demoAccounts: config.custody.backend === 'sandbox',
        liveStreams: live,
      },
      config.ssoCheckMs,
      logger,
    );
    // Notifications: derived from the same logs the event streams tail, queued and sent with
    // retries (capabilities/notifications/).
    const notifier = startNotifier({
      db: database.db,
      clock,
      logger,
      sources: namedSources(liveSources(config.custody.backend, database.db)),
      baseUrl: () => config.notifications.baseUrl ?? listening.origin?.publicOrigin ?? url,
      targets: { allowPrivate: config.webhooks.allowPrivateTargets },
      ...(config.custody.backend === 'sandbox'
        ? { scans: [stuckTransactions(database.db, config.notifications.stuckAfterMs)] }
        : {}),
      ...(database.listen ? { listen: database.listen.bind(database) } : {}),
    });
    return {
      url,
      port,
      close: async () => {
        await notifier.stop();
        await ssoCheck.stop();
        // The scheduler's pass under way ends before the executor's, both before the database.
        const background = {
          stop: async () => {
            await schedules?.stop();
            await runs?.stop();
          },
        };
        await shutdown(server, database, simulator, live, webhooks, background);
        await render.stop();
      },
    };
  } catch (error) {
    await schedules?.stop();
    await runs?.stop();
    await webhooks?.stop();
    await simulator?.stop();
    await database.close();
    throw error;
  }
}

/** What every start does before serving: migrate the tracks it needs, seed an empty sandbox. */
async function migrateAndSeed(
  database: DatabaseHandle,
  config: AppConfig,
  clock: Clock,
  logger: Logger,
): Promise<void> {
  const sandbox = config.custody.backend === 'sandbox';
  const tracks: MigrationTrack[] = sandbox ? ['console', 'sandbox'] : ['console'];
  await database.migrate(tracks);
  logger.info({ driver: database.driver, tracks }, 'database migrated');
  if (!sandbox) return;
  const summary = await database.withStartupLock((db) => seedSandbox(db, { now: clock.now() }));
  if (summary.seeded) logger.info({ counts: summary.counts }, 'sandbox seeded with demo data');
  const demoStaff = await database.withStartupLock((db) => seedDemoStaff(db, clock.now()));
  if (demoStaff > 0)
    logger.info({ demoStaff }, 'sandbox demo staff created (see /auth/demo-accounts)');
}

/**
 * Opens the database, migrates and seeds it as a start would, and closes it:
 * what first-start.ts runs in a child process on a new PGlite directory.
 */
export async function prepareDatabase(config: AppConfig, logger: Logger): Promise<void> {
  let prepared = false;
  // Marked unfinished until done, so a first start killed half way begins again (first-start.ts).
  const database = await openDatabase(config, undefined, {
    beforeOpen: beginFirstStart,
    afterClose: async (dataDir) => {
      if (prepared) await finishFirstStart(dataDir);
    },
  });
  try {
    await migrateAndSeed(database, config, systemClock, logger);
    prepared = true;
  } finally {
    await database.close();
  }
}

function listen(
  fetch: Parameters<typeof serve>[0]['fetch'],
  hostname: string,
  port: number,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname, port, serverOptions: HTTP_SERVER_TIMEOUTS }, () =>
      resolve(server),
    );
    server.once('error', reject);
  });
}

async function shutdown(
  server: ServerType,
  database: DatabaseHandle,
  simulator: RunningSimulator | undefined,
  live: LiveHub,
  webhooks: RunningDispatcher | undefined,
  runs: { stop(): Promise<void> } | undefined,
): Promise<void> {
  live.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Idle keep-alive connections would hold close() open until they time out.
    if ('closeIdleConnections' in server) server.closeIdleConnections();
  });
  // The executor's pass under way ends first: a row it made is recorded before the database closes.
  await runs?.stop();
  // The pass in progress finishes its step (one database transaction) before the database closes.
  await simulator?.stop();
  // Attempts under way finish (each within its deadline) and are settled before the database closes.
  await webhooks?.stop();
  await database.close();
}
