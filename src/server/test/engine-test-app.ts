import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createApp, type App } from '../app.ts';
import type { OriginPolicy } from '../http/public-origin.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { assets, transactions, vaultBalances } from '../db/schema/sandbox.ts';
import { createContact, createOrg, createVault } from './fixtures.ts';
import { actAsAdmin } from './staff-session.ts';
import { systemClock, type Clock } from '../clock.ts';
import { createTestDatabase } from './test-database.ts';
import { canonicalDecimal } from '../custody/sandbox/mappers.ts';
import { createSandboxBackend } from '../wiring/sandbox-backend.ts';
import { assetRows } from '../custody/sandbox/seed/reference-data.ts';
import { TestClock } from './test-clock.ts';
import {
  approveTransaction,
  declineTransaction,
} from '../custody/sandbox/engine/approval-outcome.ts';
import { runDueSteps } from '../custody/sandbox/engine/simulator.ts';

/**
 * The real app over a real database for the engine's tests, with the engine
 * on a TestClock: time moves only when a test says so, and the simulator
 * runs only when a test calls `run()`. Requests act as a signed-in admin.
 */

export interface EngineTestApp {
  app: App;
  db: Database;
  database: DatabaseHandle;
  /** The sandbox backend the app serves (before the scope layer), for a test that reads a port directly. */
  backend: CustodyBackend;
  orgId: string;
  /** The engine's clock: lifecycles move only when a test advances it. */
  clock: TestClock;
  /** The clock sessions and API-client tokens are judged by: the real time. */
  authClock: Clock;
  post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  get(url: string): Promise<{ status: number; body: Record<string, unknown> }>;
  approve(transactionId: string): Promise<boolean>;
  decline(transactionId: string, reason?: string): Promise<boolean>;
  /** Advances the clock by `ms` (if given) and runs every step then due. */
  run(ms?: number): Promise<number>;
  status(transactionId: string): Promise<string | undefined>;
  balance(vaultId: string, asset: string, chain: string): Promise<{ amount: string; held: string }>;
  close(): Promise<void>;
}

export const TIME_SCALE = 1;

export async function createEngineTestApp(
  options: {
    database?: DatabaseHandle;
    orgId?: string;
    clock?: TestClock;
    /** The public origin it answers as, when served over HTTP (http/public-origin.ts). */
    origin?: () => OriginPolicy;
    /** RAMP_RATE_TOLERANCE_PERCENT: the default (0.5) unless a test needs another. */
    rampRateTolerancePercent?: string;
  } = {},
): Promise<EngineTestApp> {
  const database = options.database ?? (await createTestDatabase());
  const db = database.db;
  const orgId = options.orgId ?? (await createOrg(db)).id;
  const clock = options.clock ?? new TestClock();
  // Sessions and API-client tokens are judged by the real time here: callers
  // sign tokens with the real time (as an SDK does), and a frozen clock would
  // call them "not yet valid" once a slow run passes the allowed skew.
  // Only the engine runs on the test clock.
  const sessionClock = systemClock;
  const backend = createSandboxBackend({
    db,
    orgId,
    clock,
    timeScale: TIME_SCALE,
    ...(options.rampRateTolerancePercent
      ? { rampRateTolerancePercent: options.rampRateTolerancePercent }
      : {}),
  });
  const app = createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend,
    ...(options.origin ? { origin: options.origin } : {}),
    database,
    logger: pino({ level: 'silent' }),
    auth: { db, clock: sessionClock, demoAccounts: false, trustProxy: false },
  });
  await actAsAdmin(app, db, sessionClock);

  const json = async (res: Response) => {
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  return {
    app,
    db,
    database,
    backend,
    orgId,
    clock,
    authClock: sessionClock,
    post: async (url, body) =>
      json(
        await app.request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    get: async (url) => json(await app.request(url)),
    // Each in one database transaction, as a decision makes it (engine/transitions.ts).
    approve: (transactionId) =>
      db.transaction((tx) => approveTransaction(tx, { transactionId, at: clock.now() })),
    decline: (transactionId, reason) =>
      db.transaction((tx) =>
        declineTransaction(tx, { transactionId, at: clock.now(), reason: reason ?? null }),
      ),
    async run(ms) {
      if (ms) clock.advance(ms);
      return runDueSteps(db, clock, { timeScale: TIME_SCALE });
    },
    async status(transactionId) {
      const [row] = await db
        .select({ status: transactions.status })
        .from(transactions)
        .where(eq(transactions.id, transactionId));
      return row?.status;
    },
    async balance(vaultId, asset, chain) {
      const rows = await db.select().from(vaultBalances).where(eq(vaultBalances.vaultId, vaultId));
      const row = rows.find((r) => r.asset === asset && r.chain === chain);
      return {
        amount: row ? canonicalDecimal(row.amount) : '0',
        held: row ? canonicalDecimal(row.held) : '0',
      };
    },
    close: () => database.close(),
  };
}

export interface EngineFixture {
  /** Holds ETH, USDC, POL, BTC, SOL, TRX and ICP on their chains. */
  treasury: { id: string };
  /** Another vault of ours, holding a little ETH. */
  ops: { id: string };
  /** A GAS vault holding SOL and TRX, to pay fees for others. */
  gas: { id: string };
  contacts: {
    eth: { id: string };
    ethUsdcOnly: { id: string };
    ethPending: { id: string };
    tron: { id: string };
  };
}

export const TREASURY_BALANCES = [
  { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
  { asset: 'USDC', chain: 'ETHEREUM', amount: '5000' },
  { asset: 'POL', chain: 'POLYGON', amount: '1000' },
  { asset: 'BTC', chain: 'BITCOIN', amount: '2' },
  { asset: 'SOL', chain: 'SOLANA', amount: '50' },
  { asset: 'TRX', chain: 'TRON', amount: '100000' },
  { asset: 'ICP', chain: 'ICP', amount: '500' },
];

/** Assets, three vaults with wallets on every chain, and contacts in the states the rules care about. */
export async function createEngineFixture(db: Database, orgId: string): Promise<EngineFixture> {
  await db.insert(assets).values(assetRows()).onConflictDoNothing();
  const treasury = await createVault(db, { orgId, vaultName: 'Treasury' }, TREASURY_BALANCES);
  const ops = await createVault(db, { orgId, vaultName: 'Operations' }, [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
  ]);
  const gas = await createVault(db, { orgId, vaultName: 'Gas', vaultType: 'GAS' }, [
    { asset: 'SOL', chain: 'SOLANA', amount: '5' },
    { asset: 'TRX', chain: 'TRON', amount: '5000' },
  ]);
  return {
    treasury,
    ops,
    gas,
    contacts: {
      eth: await createContact(db, { orgId, name: 'Exchange', assetList: [] }),
      ethUsdcOnly: await createContact(db, { orgId, name: 'USDC desk', assetList: ['USDC'] }),
      ethPending: await createContact(db, { orgId, name: 'New vendor', status: 'PENDING' }),
      tron: await createContact(db, {
        orgId,
        name: 'Energy lessee',
        blockChain: 'TRON',
        address: 'TXYZ1234567890abcdefghijklmnopqrs',
        assetList: [],
      }),
    },
  };
}
