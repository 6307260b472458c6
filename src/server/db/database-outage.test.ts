import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#contract/paths.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../test/private-postgres.ts';
import { freePort, healthy, signInAsDemo } from '../test/served.ts';
import { wrapPgPool } from './client.ts';

/**
 * The console on a PostgreSQL that goes away under it: stopped, restarted,
 * its backends terminated while staff create and approve. The server runs as
 * `npm start` runs it, in a process of its own, so that an error nothing
 * catches shows as that process ending.
 */

let postgres: PrivatePostgres;
let server: { base: string; child: ChildProcess; exit: Promise<number | null>; log: string[] };

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  server = await startServerProcess(postgres.url);
}, 180_000);
afterAll(async () => {
  if (server?.child.pid && server.child.exitCode === null)
    process.kill(-server.child.pid, 'SIGKILL');
  await postgres?.cleanup();
});

async function startServerProcess(databaseUrl: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      STATIC_DIR: '/nonexistent-spa',
      // Lifecycles move fast, so the simulator's loop is busy while the database goes away.
      SANDBOX_TIME_SCALE: '0.01',
    },
  });
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const ready = healthy(base);
  await Promise.race([
    ready,
    exit.then((code) => {
      throw new Error(`server exited early with ${code}: ${log.join('')}`);
    }),
  ]);
  return { base, child, exit, log };
}

type Auth = { cookie: string; csrf: string };

/** `request`'s answer, asked again after each 503's Retry-After, at most five times. */
async function afterRetries(request: () => Promise<Response>): Promise<Response> {
  let res = await request();
  for (let retries = 0; res.status === 503 && retries < 5; retries += 1) {
    const seconds = Number(res.headers.get('Retry-After') ?? '1');
    await res.text();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    res = await request();
  }
  return res;
}

async function transfer(base: string, auth: Auth, source: string, destination: string) {
  return fetch(`${base}${paths.transactions()}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: base,
      cookie: auth.cookie,
      'X-CSRF-Token': auth.csrf,
    },
    body: JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: source },
      destination: { type: 'VAULT', id: destination },
      amount: '0.0001',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    }),
  });
}

async function approve(base: string, auth: Auth, transactionId: string) {
  const message = await fetch(
    `${base}${paths.approvalMessage()}?entityId=${encodeURIComponent(transactionId)}`,
    { headers: { cookie: auth.cookie } },
  );
  if (message.status !== 200) return message;
  const { approvalId } = (await message.json()) as { approvalId: string };
  return fetch(`${base}${paths.approvalAction(approvalId)}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: base,
      cookie: auth.cookie,
      'X-CSRF-Token': auth.csrf,
    },
    body: JSON.stringify({ action: 'approve' }),
  });
}

/** Ten clients creating and approving until told to stop; every status they were answered. */
function busyClients(base: string, initiator: Auth, approver: Auth, vaults: [string, string]) {
  let running = true;
  const statuses: number[] = [];
  const client = async () => {
    while (running) {
      const created = await transfer(base, initiator, ...vaults).catch(() => undefined);
      // No answer at all (the server is gone): counted, and the test sees it below.
      statuses.push(created?.status ?? 0);
      if (!created) continue;
      if (created.status !== 200) {
        await created.text();
        continue;
      }
      const { id } = (await created.json()) as { id: string };
      const decided = await approve(base, approver, id).catch(() => undefined);
      statuses.push(decided?.status ?? 0);
      await decided?.text();
    }
  };
  const clients = Array.from({ length: 10 }, client);
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

describe('the database going away under load', () => {
  it('survives its backends terminated and a fast restart while clients create and approve', async () => {
    const { base } = server;
    const initiator = await signInAsDemo(base, 'initiator');
    const approver = await signInAsDemo(base, 'approver');
    const vaults = VaultListResponse.parse(
      await (
        await fetch(`${base}${paths.vaults()}?limit=100`, { headers: { cookie: initiator.cookie } })
      ).json(),
    ).results.filter((v) => v.wallets?.some((w) => w.blockchain === 'ETHEREUM'));
    const pair: [string, string] = [vaults[0]?.id ?? '', vaults[1]?.id ?? ''];

    const load = busyClients(base, initiator, approver, pair);
    let exitedWith: string | undefined;
    void server.exit.then((code) => (exitedWith = `exited with ${code}`));
    /** Until `count` more answers came back, or the server ended. */
    const answers = async (count: number) => {
      const until = load.statuses.length + count;
      // Polling the clients' tally: there is no event for "n more answers".
      while (load.statuses.length < until && !exitedWith)
        await new Promise((r) => setTimeout(r, 20));
    };
    for (let round = 0; round < 5 && !exitedWith; round += 1) {
      await answers(5);
      await postgres.terminateBackends();
    }
    if (!exitedWith) await postgres.restart();
    await answers(20);
    await load.stop();

    // Still running, and answering.
    expect(exitedWith, server.log.join('').slice(-3000)).toBeUndefined();
    // Answering: a connection the restart broke may still answer one 503, as its Retry-After says.
    const res = await afterRetries(() =>
      fetch(`${base}${paths.vaults()}?limit=1`, { headers: { cookie: initiator.cookie } }),
    );
    expect(res.status, server.log.join('').slice(-3000)).toBe(200);
    expect(load.statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    // Every answer was one: a success, or 503 while connections were being replaced; never a 500.
    expect(new Set(load.statuses.filter((s) => s !== 200))).not.toContain(500);
    expect(load.statuses).not.toContain(0);
  }, 180_000);

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After while PostgreSQL is stopped, and recovers', async () => {
    const { base } = server;
    const viewer = await signInAsDemo(base, 'viewer');
    const read = () =>
      fetch(`${base}${paths.transactions()}?limit=5`, { headers: { cookie: viewer.cookie } });
    expect((await read()).status).toBe(200);

    await postgres.stop();
    try {
      for (const url of [`${paths.transactions()}?limit=5`, paths.vaults(), '/auth/session']) {
        const res = await fetch(`${base}${url}`, { headers: { cookie: viewer.cookie } });
        expect(res.status, url).toBe(503);
        expect(res.headers.get('Retry-After'), url).toMatch(/^\d+$/);
        expect(await res.json(), url).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      }
      expect((await fetch(`${base}/healthz`)).status).toBe(503);
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
    } finally {
      await postgres.start();
    }
    // Back: the same request succeeds, as the 503 said, retried after its Retry-After (the first
    // one after the restart may still meet a connection the stop broke, and answer 503 again).
    const res = await afterRetries(read);
    expect(res.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});

describe('a LISTEN connection lost', () => {
  it('is given back to the pool, however often it is lost and listened again', async () => {
    // A pool of two, as the server's is of ten: each connection a lost LISTEN kept was one
    // fewer for every request, until none was left and each answered 503.
    const applicationName = `listen-${process.pid}-${Date.now()}`;
    const pool = new pg.Pool({
      connectionString: postgres.url,
      max: 2,
      connectionTimeoutMillis: 5_000,
      application_name: applicationName,
    });
    const handle = wrapPgPool(pool);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    try {
      for (let round = 0; round < 4; round += 1) {
        let lostNow = () => {};
        const lost = new Promise<void>((resolve) => (lostNow = resolve));
        // A connection kept by the lost LISTEN before would leave none to take here.
        const unlisten = await handle.listen?.(
          'listen_leak',
          () => undefined,
          () => lostNow(),
        );
        expect(unlisten).toBeTypeOf('function');
        const { rows: ended } = await admin.query<{ ended: boolean }>(
          `select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1`,
          [applicationName],
        );
        expect(ended).toEqual([{ ended: true }]);
        await lost;
      }
      const { rows } = await pool.query<{ one: number }>('select 1 as one');
      expect(rows).toEqual([{ one: 1 }]);
      expect(pool.totalCount).toBeLessThanOrEqual(1);
    } finally {
      await admin.end();
      await handle.close();
    }
  }, 60_000);
});
