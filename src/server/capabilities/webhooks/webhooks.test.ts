import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { CSRF_HEADER } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { WebhookDelivery, WebhookEndpointCreated } from '#contract/webhooks.ts';
import { createApp } from '../../app.ts';
import { systemClock } from '../../clock.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import { approveTransaction } from '../../custody/sandbox/engine/approval-outcome.ts';
import { runDueSteps } from '../../custody/sandbox/engine/simulator.ts';
import { transition } from '../../custody/sandbox/engine/transitions.ts';
import type { Database } from '../../db/client.ts';
import { subOrgs, webhookEndpoints } from '../../db/schema/sandbox.ts';
import { createOrg, createTransaction } from '../../test/fixtures.ts';
import { createEngineFixture } from '../../test/engine-test-app.ts';
import { actAsAdmin, signInStaff } from '../../test/staff-session.ts';
import { TestClock } from '../../test/test-clock.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { listen } from '../../test/served.ts';
import {
  MAX_WEBHOOK_BODY_BYTES,
  WEBHOOK_BODY_READ_TIMEOUT_MS,
  type CustodyEventSink,
} from './receiver.routes.ts';
import { createCustodyEventSink } from '../live/sink.ts';
import {
  createWebhookDispatcher,
  startWebhookDispatcher,
  type RunningDispatcher,
  type WebhookDispatcher,
} from './sandbox/dispatcher.ts';
import { canonicalJson, signatureOf } from './signing.ts';
import { checkTarget, guardedLookup, isPrivateAddress } from './targets.ts';

/**
 * Webhooks through the real app on a real database, the engine and the
 * dispatcher on a TestClock, deliveries to HTTP servers of the test's own.
 */

// ── The two SDK examples' verification, rewritten here from their files ──────────────────────
// JavaScript: horcrux01/primevault_api_sdk_js_public, examples/webhook.tsx (sortObjectKeysRecursively
// leaves arrays as they are; JSON.stringify writes non-ASCII as is).
function sortKeysLikeJsExample(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeysLikeJsExample((value as Record<string, unknown>)[key]);
  return sorted;
}
function jsExampleAccepts(headers: http.IncomingHttpHeaders, body: string, key: string): boolean {
  const message = JSON.stringify(sortKeysLikeJsExample(JSON.parse(body)));
  const expected = createHmac('sha256', Buffer.from(key, 'utf-8'))
    .update(`${message}${parseInt(String(headers['x-timestamp']), 10)}`)
    .digest('hex');
  return expected === headers['x-signature'];
}

// Python: horcrux01/primevault_api_sdk_public, examples/webhooks.py: json.dumps(data,
// sort_keys=True, separators=(",", ":")), ensure_ascii as Python's default: every dict sorted
// (inside lists too), every character outside ' '..'~' written \uXXXX (pairs for astral ones).
function pythonDumps(value: unknown): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('no floats in these bodies');
    return String(value);
  }
  if (typeof value === 'string') {
    let out = '"';
    for (const unit of Array.from({ length: value.length }, (_, i) => value.charCodeAt(i))) {
      const c = String.fromCharCode(unit);
      if (c === '\\') out += '\\\\';
      else if (c === '"') out += '\\"';
      else if (c === '\n') out += '\\n';
      else if (c === '\r') out += '\\r';
      else if (c === '\t') out += '\\t';
      else if (c === '\b') out += '\\b';
      else if (c === '\f') out += '\\f';
      else if (unit >= 0x20 && unit < 0x7f) out += c;
      else out += `\\u${unit.toString(16).padStart(4, '0')}`;
    }
    return `${out}"`;
  }
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${pythonDumps(k)}:${pythonDumps(record[k])}`).join(',')}}`;
}
function pythonExampleAccepts(headers: http.IncomingHttpHeaders, body: string, key: string) {
  const message = pythonDumps(JSON.parse(body));
  const expected = createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(Buffer.from(`${message}${Number(headers['x-timestamp'])}`, 'utf8'))
    .digest('hex');
  return expected === headers['x-signature'];
}

// ── A receiving server ─────────────────────────────────────────────────────────────────────────
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: {
    event: string;
    eventId: string;
    version: string;
    data: { transaction: Transaction & { memo?: string }; transactionOperation?: unknown };
  };
}
type Behaviour = 'ok' | 'fail' | 'hang';

async function receiver(initial: Behaviour = 'ok') {
  let behaviour = initial;
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      if (behaviour === 'hang') hanging.add(res);
      else if (behaviour === 'fail') res.writeHead(500).end('database down');
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    set: (next: Behaviour) => (behaviour = next),
    hanging: () => hanging.size,
    /** Answers every request left hanging, at last. */
    answer() {
      for (const res of hanging) res.writeHead(204).end();
      hanging.clear();
    },
    /** Ends every request left hanging, as a dead endpoint's connection drops. */
    drop() {
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ── The app ───────────────────────────────────────────────────────────────────────────────────
const RECEIVER_KEY = 'test-receiver-key-0123456789';
const database = await createTestDatabase();
const db: Database = database.db;
const orgId = (await createOrg(db)).id;
const clock = new TestClock();
const f = await createEngineFixture(db, orgId);
// The console's own store, watched: what it stored (once per eventId, replays refused by it).
const recorded: Parameters<CustodyEventSink['record']>[0][] = [];
let recordedWaiters: Array<() => void> = [];
const store = createCustodyEventSink(db, clock);
const sink: CustodyEventSink = {
  async record(event) {
    const stored = await store.record(event);
    if (stored) recorded.push(event);
    for (const w of recordedWaiters) w();
    recordedWaiters = [];
    return stored;
  },
};

function makeApp(allowPrivate: boolean, key: string | null = RECEIVER_KEY) {
  return createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createSandboxBackend({ db, orgId, clock, webhookTargets: { allowPrivate } }),
    database,
    logger: pino({ level: 'silent' }),
    custodyWebhooks: { key, sink },
    auth: { db, clock: systemClock, demoAccounts: false, trustProxy: false },
  });
}
// The tests' receivers are on 127.0.0.1: allowed explicitly (WEBHOOK_ALLOW_PRIVATE_TARGETS=1).
const app = makeApp(true);
await actAsAdmin(app, db, systemClock);
const servers: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  await database.close();
});

async function call(method: string, url: string, body?: unknown) {
  const res = await app.request(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

async function register(
  url: string,
  over: Record<string, unknown> = {},
): Promise<WebhookEndpointCreated> {
  const res = await call('POST', '/api/console/webhooks/', {
    url,
    events: ['TRANSACTION_STATUS_CHANGED', 'TRANSACTION_OPERATION_STATUS_CHANGED'],
    ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const created = res.body as WebhookEndpointCreated;
  // Disabled when its test ends, whatever happened in it: a test that fails half way would
  // otherwise leave it taking the next tests' events, and fail them too.
  onTestFinished(async () => {
    await call('PATCH', `/api/console/webhooks/${created.id}/`, { enabled: false });
  });
  return created;
}

async function disable(id: string) {
  expect((await call('PATCH', `/api/console/webhooks/${id}/`, { enabled: false })).status).toBe(
    200,
  );
}

/** Moves an endpoint to another receiver behind the API: a claim already made keeps the URL it was made with. */
async function pointAt(id: string, url: string) {
  await db.update(webhookEndpoints).set({ url }).where(eq(webhookEndpoints.id, id));
}

function dispatcher(over: Partial<Parameters<typeof createWebhookDispatcher>[0]> = {}) {
  return createWebhookDispatcher({
    db,
    clock,
    logger: pino({ level: 'silent' }),
    targets: { allowPrivate: true },
    timeoutMs: 2_000,
    ...over,
  });
}

/** Polls and waits until nothing more is due now. */
async function deliverDue(d: WebhookDispatcher) {
  while ((await d.poll()) > 0) await d.idle();
}

async function transfer(memo: string): Promise<string> {
  const res = await call('POST', paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'CONTACT', id: f.contacts.eth.id },
    amount: '0.01',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    memo,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.id);
}

/** Approves it and runs the simulator on the test clock until it is COMPLETED. */
async function complete(id: string) {
  // In one database transaction, as a decision makes it: its event's delivery is queued with it,
  // before the simulator (another `complete` stepping at once) can move the transaction on.
  expect(
    await db.transaction((tx) => approveTransaction(tx, { transactionId: id, at: clock.now() })),
  ).toBe(true);
  for (let i = 0; i < 20; i += 1) {
    const tx = await call('GET', paths.transaction(id));
    if (tx.body.status === 'COMPLETED') return;
    clock.advance(60_000);
    await runDueSteps(db, clock, { timeScale: 1 });
  }
  throw new Error(`transaction ${id} did not complete`);
}

async function deliveries(endpointId: string, state?: string): Promise<WebhookDelivery[]> {
  const res = await call(
    'GET',
    `/api/console/webhooks/${endpointId}/deliveries/?limit=100${state ? `&state=${state}` : ''}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as WebhookDelivery[];
}

const LIFECYCLE = [
  'PENDING',
  'APPROVED',
  'SIGNED',
  'SUBMITTED',
  'WAITING_CONFIRMATION',
  'COMPLETED',
];

const statusesOf = (received: Received[], transactionId: string) =>
  received
    .filter(
      (r) =>
        r.json.event === 'TRANSACTION_STATUS_CHANGED' &&
        r.json.data.transaction?.id === transactionId,
    )
    .map((r) => r.json.data.transaction.status as string);

describe('the sandbox sends webhooks', () => {
  it('delivers every status of a transfer once per eventId, in order, signed so both SDK examples verify it', async () => {
    const python = await receiver();
    const js = await receiver();
    servers.push(python, js);
    const pyEndpoint = await register(python.url, { signatureEncoding: 'ASCII_ESCAPED' });
    const jsEndpoint = await register(js.url, { signatureEncoding: 'UNESCAPED' });
    expect(pyEndpoint.verificationKey).toMatch(/^whsec_/);
    // The key is shown once: never listed.
    const listed = await call('GET', '/api/console/webhooks/');
    expect(JSON.stringify(listed.body)).not.toContain(pyEndpoint.verificationKey);

    const plain = await transfer('Invoice 42 "rent" \\ March');
    const accented = await transfer('Café Zürich – 東京 🚀');
    await complete(plain);
    await complete(accented);
    const d = dispatcher();
    await deliverDue(d);

    for (const r of [python, js]) {
      expect(statusesOf(r.received, plain)).toEqual(LIFECYCLE);
      expect(statusesOf(r.received, accented)).toEqual(LIFECYCLE);
      const ids = r.received.map((x) => x.json.eventId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const x of r.received) {
        expect(x.json.version).toBe('2.0.0');
        // The body sent is the text signed.
        expect(x.headers['content-type']).toBe('application/json');
        expect(Number(x.headers['x-timestamp'])).toBe(Math.floor(clock.now().getTime() / 1000));
      }
    }
    // Printable ASCII: both examples verify every delivery, whichever the endpoint chose.
    for (const [r, key] of [
      [python, pyEndpoint.verificationKey],
      [js, jsEndpoint.verificationKey],
    ] as const) {
      for (const x of r.received.filter((y) => y.json.data.transaction.id === plain)) {
        expect(pythonExampleAccepts(x.headers, x.body, key)).toBe(true);
        expect(jsExampleAccepts(x.headers, x.body, key)).toBe(true);
      }
    }
    // Beyond ASCII the two examples sign different texts: each endpoint's own example verifies.
    const pyAccented = python.received.filter((y) => y.json.data.transaction.id === accented);
    const jsAccented = js.received.filter((y) => y.json.data.transaction.id === accented);
    // Six statuses, and the transfer's operation, COMPLETED with it.
    expect(pyAccented.map((y) => y.json.event)).toEqual([
      ...LIFECYCLE.slice(0, -1).map(() => 'TRANSACTION_STATUS_CHANGED'),
      'TRANSACTION_OPERATION_STATUS_CHANGED',
      'TRANSACTION_STATUS_CHANGED',
    ]);
    expect(pyAccented.at(-2)?.json.data.transactionOperation).toMatchObject({
      transactionId: accented,
      status: 'COMPLETED',
    });
    for (const x of pyAccented) {
      expect(x.body).toContain('Caf\\u00e9 Z\\u00fcrich \\u2013 \\u6771\\u4eac \\ud83d\\ude80');
      expect(pythonExampleAccepts(x.headers, x.body, pyEndpoint.verificationKey)).toBe(true);
      expect(jsExampleAccepts(x.headers, x.body, pyEndpoint.verificationKey)).toBe(false);
    }
    for (const x of jsAccented) {
      expect(x.json.data.transaction.memo).toBe('Café Zürich – 東京 🚀');
      expect(jsExampleAccepts(x.headers, x.body, jsEndpoint.verificationKey)).toBe(true);
      expect(pythonExampleAccepts(x.headers, x.body, jsEndpoint.verificationKey)).toBe(false);
    }
    // data.transaction is the transaction as GET answers it, at that status.
    const last = python.received.filter((y) => y.json.data.transaction.id === plain).at(-1);
    const now = await call('GET', paths.transaction(plain));
    expect(last?.json.data.transaction).toEqual(now.body);

    // The log: every delivery DELIVERED at its first attempt, with its status code and latency.
    const log = await deliveries(pyEndpoint.id);
    expect(log).toHaveLength(14);
    for (const entry of log) {
      expect(entry).toMatchObject({ state: 'DELIVERED', attempts: 1, lastStatusCode: 204 });
      expect(entry.lastLatencyMs).toBeGreaterThanOrEqual(0);
    }
    // Nothing more is due: nothing is sent twice.
    expect(await d.poll()).toBe(0);
    await disable(pyEndpoint.id);
    await disable(jsEndpoint.id);
  });

  it('retries a failing endpoint with growing back-off for a day, then marks it failed; resent, it arrives', async () => {
    const r = await receiver('fail');
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const id = await transfer('retry me');
    const d = dispatcher({ timeoutMs: 300 });
    await deliverDue(d);
    let [first] = await deliveries(endpoint.id);
    expect(first).toMatchObject({ state: 'PENDING', attempts: 1, lastStatusCode: 500 });
    expect(first?.lastError).toBe('answered 500: database down');
    const due1 = Date.parse(first?.nextAttemptAt ?? '') - clock.now().getTime();
    expect(due1).toBe(30_000);
    // Not before it is due.
    expect(await d.poll()).toBe(0);
    clock.advance(30_000);
    r.set('hang');
    await deliverDue(d);
    [first] = await deliveries(endpoint.id);
    expect(first).toMatchObject({ state: 'PENDING', attempts: 2, lastStatusCode: null });
    expect(first?.lastError).toBe('no answer within 300 ms');
    // Growing: a minute after the second failure.
    expect(Date.parse(first?.nextAttemptAt ?? '') - clock.now().getTime()).toBe(60_000);
    r.drop();

    // A day later it is given up.
    r.set('fail');
    clock.advance(25 * 3600_000);
    await deliverDue(d);
    const failed = await deliveries(endpoint.id, 'FAILED');
    expect(failed.map((x) => x.status)).toEqual(['PENDING']);
    expect(failed[0]?.attempts).toBe(3);

    // Resend everything failed: delivered, with the same eventId.
    r.set('ok');
    const before = r.received.length;
    const resent = await call('POST', `/api/console/webhooks/${endpoint.id}/resend-failed/`);
    expect(resent).toEqual({ status: 200, body: { resent: 1 } });
    await deliverDue(d);
    expect(r.received.slice(before).map((x) => x.json.eventId)).toEqual([failed[0]?.eventId]);
    expect((await deliveries(endpoint.id))[0]).toMatchObject({ state: 'DELIVERED', attempts: 4 });

    // One event resent on its own: sent again with its eventId and body.
    const [one] = await deliveries(endpoint.id);
    const again = await call(
      'POST',
      `/api/console/webhooks/${endpoint.id}/deliveries/${one?.id}/resend/`,
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ state: 'PENDING', eventId: one?.eventId });
    await deliverDue(d);
    const last = r.received.at(-1);
    expect(last?.json.eventId).toBe(one?.eventId);
    expect(last?.json.data.transaction.id).toBe(id);
    await disable(endpoint.id);
  });

  it('a slow endpoint holds up neither the lifecycle nor another endpoint', async () => {
    const slow = await receiver('hang');
    const fast = await receiver();
    servers.push(slow, fast);
    const slowEndpoint = await register(slow.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const fastEndpoint = await register(fast.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const id = await transfer('slow and fast');
    const d = dispatcher({ timeoutMs: 60_000 });
    const others = (endpointId: string) => endpointId !== slowEndpoint.id;
    await d.poll();
    await d.idle(others);
    // Its request is on its way: wait for it to arrive rather than assume it has.
    await vi.waitFor(() => expect(slow.hanging()).toBe(1));
    // The simulator moves the transfer to the end while the slow endpoint still holds its first.
    await complete(id);
    expect((await call('GET', paths.transaction(id))).body.status).toBe('COMPLETED');
    expect(slow.hanging()).toBe(1);
    for (let i = 0; i < 10 && (await d.poll()) > 0; i += 1) await d.idle(others);
    expect(statusesOf(fast.received, id)).toEqual(LIFECYCLE);
    expect(slow.received).toHaveLength(1);
    slow.drop();
    await d.idle();
    const [waiting] = await deliveries(slowEndpoint.id);
    expect(waiting?.state).toBe('PENDING');
    await disable(slowEndpoint.id);
    await disable(fastEndpoint.id);
  });

  it('an endpoint registered while a transfer moves gets its next statuses, and none once disabled', async () => {
    // The endpoints a status change writes to are known to the engine between changes to them
    // (outbox.ts): registering and disabling must reach the very next status change.
    const r = await receiver();
    servers.push(r);
    const id = await transfer('registered mid-way');
    expect(
      await db.transaction((tx) => approveTransaction(tx, { transactionId: id, at: clock.now() })),
    ).toBe(true);
    clock.advance(60_000);
    await runDueSteps(db, clock, { timeScale: 1, maxSteps: 1 });
    expect((await call('GET', paths.transaction(id))).body.status).toBe('SIGNED');

    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    for (let i = 0; i < 20; i += 1) {
      if ((await call('GET', paths.transaction(id))).body.status === 'COMPLETED') break;
      clock.advance(60_000);
      await runDueSteps(db, clock, { timeScale: 1 });
    }
    const d = dispatcher();
    await deliverDue(d);
    expect(statusesOf(r.received, id)).toEqual(['SUBMITTED', 'WAITING_CONFIRMATION', 'COMPLETED']);

    await disable(endpoint.id);
    const after = await transfer('after disabling');
    await complete(after);
    await deliverDue(d);
    expect(statusesOf(r.received, after)).toEqual([]);
  });
});

describe("a ramp's operations", () => {
  it('each operation whose status a step changes is an event, before the transaction’s own', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url);
    const row = await createTransaction(db, {
      orgId,
      vaultId: f.treasury.id,
      status: 'SIGNED',
      category: 'OFF_RAMP',
      subCategory: 'OFF_RAMP',
      operations: [
        { sequence: 1, type: 'TRANSFER', status: 'PROCESSING' },
        { sequence: 2, type: 'TRADE', status: 'PENDING' },
        { sequence: 3, type: 'WITHDRAW', status: 'PENDING' },
      ],
    });
    // As the ramp's step does (capabilities/ramps/sandbox/ramp-lifecycle.ts): the operations move with the status.
    await db.transaction((tx) =>
      transition(tx, {
        transactionId: row.id,
        from: 'SIGNED',
        to: 'SUBMITTED',
        at: clock.now(),
        nextStepAt: null,
        patch: {
          operations: [
            { sequence: 1, type: 'TRANSFER', status: 'COMPLETED' },
            { sequence: 2, type: 'TRADE', status: 'PROCESSING' },
            { sequence: 3, type: 'WITHDRAW', status: 'PENDING' },
          ],
        },
      }),
    );
    await deliverDue(dispatcher());
    const mine = r.received.filter((x) => x.json.data.transaction.id === row.id);
    expect(
      mine.map((x) => [
        x.json.event,
        (x.json.data.transactionOperation as { sequence?: number; status?: string } | undefined)
          ?.sequence ?? null,
        (x.json.data.transactionOperation as { status?: string } | undefined)?.status ??
          x.json.data.transaction.status,
      ]),
    ).toEqual([
      ['TRANSACTION_OPERATION_STATUS_CHANGED', 1, 'COMPLETED'],
      ['TRANSACTION_OPERATION_STATUS_CHANGED', 2, 'PROCESSING'],
      ['TRANSACTION_STATUS_CHANGED', null, 'SUBMITTED'],
    ]);
    // The operation's event says which transaction it belongs to.
    expect(mine[0]?.json.data.transactionOperation).toMatchObject({ transactionId: row.id });
    await disable(endpoint.id);
  });
});

describe('several dispatchers on one database', () => {
  it('never send one attempt twice, and resend now what waits for its retry', async () => {
    const r = await receiver('fail');
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const ids = [await transfer('two servers a'), await transfer('two servers b')];
    await Promise.all(ids.map((id) => complete(id)));
    r.set('ok');
    // Two servers' dispatchers polling the same outbox at once.
    const one = dispatcher();
    const two = dispatcher();
    for (let i = 0; i < 20; i += 1) {
      const [a, b] = await Promise.all([one.poll(), two.poll()]);
      await Promise.all([one.idle(), two.idle()]);
      if (a + b === 0) break;
    }
    for (const id of ids) expect(statusesOf(r.received, id)).toEqual(LIFECYCLE);
    const eventIds = r.received.map((x) => x.json.eventId);
    expect(new Set(eventIds).size).toBe(eventIds.length);

    // A failed attempt waits 30 s for its retry; resent, it goes now.
    r.set('fail');
    const late = await transfer('resend now');
    await deliverDue(one);
    const [waiting] = await deliveries(endpoint.id);
    expect(waiting).toMatchObject({ state: 'PENDING', attempts: 1, lastStatusCode: 500 });
    r.set('ok');
    const resent = await call(
      'POST',
      `/api/console/webhooks/${endpoint.id}/deliveries/${waiting?.id}/resend/`,
    );
    expect(resent.body).toMatchObject({
      state: 'PENDING',
      nextAttemptAt: clock.now().toISOString(),
    });
    await deliverDue(one);
    expect(statusesOf(r.received, late)).toEqual(['PENDING', 'PENDING']);
    expect((await deliveries(endpoint.id))[0]).toMatchObject({ state: 'DELIVERED', attempts: 2 });
    await disable(endpoint.id);
  });

  it('keep the outcome of the claim that holds a delivery, not of one that ran out', async () => {
    const first = await receiver('hang');
    const second = await receiver('hang');
    servers.push(first, second);
    const endpoint = await register(first.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    await transfer('claimed twice');
    const slow = dispatcher({ timeoutMs: 60_000 });
    expect(await slow.poll()).toBe(1);
    await vi.waitFor(() => expect(first.hanging()).toBe(1));
    // Its claim runs out while its request hangs: another server claims the delivery again.
    await pointAt(endpoint.id, second.url);
    clock.advance(60_000 + 60_000 + 1);
    const holder = dispatcher({ timeoutMs: 60_000 });
    expect(await holder.poll()).toBe(1);
    await vi.waitFor(() => expect(second.hanging()).toBe(1));
    // The first request is answered now: not the current claim's, so not recorded.
    first.answer();
    await slow.idle();
    expect((await deliveries(endpoint.id))[0]).toMatchObject({
      state: 'PENDING',
      attempts: 2,
      lastStatusCode: null,
    });
    second.answer();
    await holder.idle();
    expect((await deliveries(endpoint.id))[0]).toMatchObject({
      state: 'DELIVERED',
      attempts: 2,
      lastStatusCode: 204,
    });
    await disable(endpoint.id);
  });
});

describe('a running dispatcher sends at the pace the endpoints answer', () => {
  // Far away: what these tests see is sent on a wake, never by the safety-net pass.
  const SAFETY_NET_MS = 600_000;
  function running(over: Partial<Parameters<typeof startWebhookDispatcher>[0]> = {}) {
    const started = startWebhookDispatcher({
      db,
      clock,
      logger: pino({ level: 'silent' }),
      targets: { allowPrivate: true },
      timeoutMs: 5_000,
      intervalMs: SAFETY_NET_MS,
      ...(database.listen ? { listen: database.listen.bind(database) } : {}),
      ...over,
    });
    stops.push(started);
    return started;
  }
  const stops: RunningDispatcher[] = [];
  afterAll(async () => {
    for (const s of stops) await s.stop();
  });

  /**
   * A receiver that answers each request after a short random wait, counting those in flight
   * and noting when each transaction's statuses arrived and were answered.
   */
  async function jittery() {
    const received: Received[] = [];
    const answered: Array<{ transactionId: string; arrivedAt: number; answeredAt: number }> = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const server = http.createServer((req, res) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const json = JSON.parse(body) as Received['json'];
        received.push({ headers: req.headers, body, json });
        const arrivedAt = performance.now();
        setTimeout(
          () => {
            inFlight -= 1;
            const transactionId = json.data.transaction.id ?? '';
            answered.push({ transactionId, arrivedAt, answeredAt: performance.now() });
            res.writeHead(204).end();
          },
          5 + Math.floor(Math.random() * 25),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const handle = {
      url: `http://127.0.0.1:${port}/hooks`,
      received,
      answered,
      mostInFlight: () => mostInFlight,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
    servers.push(handle);
    return handle;
  }

  it('sends a new event when the outbox is written, not at its next pass', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const d = running();
    // Sent by its first pass or by a wake: either way the dispatcher is up once it arrives.
    const first = await transfer('sent by a pass or a wake');
    await vi.waitFor(() => expect(statusesOf(r.received, first)).toEqual(['PENDING']), {
      timeout: 10_000,
      interval: 20,
    });
    const id = await transfer('woken by the outbox');
    await vi.waitFor(() => expect(statusesOf(r.received, id)).toEqual(['PENDING']), {
      timeout: 10_000,
      interval: 20,
    });
    await d.stop();
    await disable(endpoint.id);
  });

  it("keeps each transaction's order to an endpoint while attempts run side by side", async () => {
    const r = await jittery();
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await transfer(`in order ${i}`));
    for (const id of ids) await complete(id);
    const d = running();
    await vi.waitFor(() => expect(r.received).toHaveLength(ids.length * LIFECYCLE.length), {
      timeout: 30_000,
      interval: 50,
    });
    // Several at once (the endpoint's four slots), yet each transaction's statuses in order.
    expect(r.mostInFlight()).toBeGreaterThan(1);
    expect(r.mostInFlight()).toBeLessThanOrEqual(4);
    for (const id of ids) expect(statusesOf(r.received, id)).toEqual(LIFECYCLE);
    // Each of a transaction's events is sent once the one before it was answered, never beside it.
    await vi.waitFor(() => expect(r.answered).toHaveLength(r.received.length));
    for (const id of ids) {
      const mine = r.answered
        .filter((x) => x.transactionId === id)
        .sort((a, b) => a.arrivedAt - b.arrivedAt);
      for (let i = 1; i < mine.length; i += 1)
        expect(mine[i]?.arrivedAt).toBeGreaterThanOrEqual(mine[i - 1]?.answeredAt ?? Infinity);
    }
    const eventIds = r.received.map((x) => x.json.eventId);
    expect(new Set(eventIds).size).toBe(eventIds.length);
    await d.stop();
    await disable(endpoint.id);
  });

  it('a hanging and a failing endpoint hold up neither a fast one nor each other', async () => {
    const hanging = await receiver('hang');
    const failing = await receiver('fail');
    const fast = await receiver();
    servers.push(hanging, failing, fast);
    const events = { events: ['TRANSACTION_STATUS_CHANGED'] };
    const hangingEndpoint = await register(hanging.url, events);
    const failingEndpoint = await register(failing.url, events);
    const fastEndpoint = await register(fast.url, events);
    const ids = [await transfer('three endpoints a'), await transfer('three endpoints b')];
    for (const id of ids) await complete(id);
    const d = running({ timeoutMs: 60_000 });
    await vi.waitFor(
      () => {
        for (const id of ids) expect(statusesOf(fast.received, id)).toEqual(LIFECYCLE);
      },
      { timeout: 15_000, interval: 50 },
    );
    // The hanging one holds one delivery per transaction (order), no more than its slots.
    expect(hanging.hanging()).toBe(ids.length);
    // The failing one was tried once per transaction and waits for its retry, 30 s away.
    await vi.waitFor(async () => {
      const waiting = await deliveries(failingEndpoint.id);
      expect(waiting.filter((x) => x.attempts === 1 && x.lastStatusCode === 500)).toHaveLength(
        ids.length,
      );
    });
    expect(failing.received).toHaveLength(ids.length);
    hanging.drop();
    await d.stop();
    for (const e of [hangingEndpoint, failingEndpoint, fastEndpoint]) await disable(e.id);
  });

  it('loses and repeats nothing across a restart, and sends again a claim a dead server left', async () => {
    const r = await jittery();
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push(await transfer(`restart ${i}`));
    for (const id of ids) await complete(id);
    const total = ids.length * LIFECYCLE.length;
    // Stopped part-way: it ends the attempts under way and records each, then claims nothing.
    const first = running();
    await vi.waitFor(() => expect(r.received.length).toBeGreaterThanOrEqual(6), {
      timeout: 15_000,
      interval: 5,
    });
    await first.stop();
    const sentByFirst = r.received.length;
    expect(sentByFirst).toBeLessThan(total);
    const second = running();
    await vi.waitFor(() => expect(r.received).toHaveLength(total), {
      timeout: 30_000,
      interval: 50,
    });
    for (const id of ids) expect(statusesOf(r.received, id)).toEqual(LIFECYCLE);
    // Stopped, it has recorded every attempt it made.
    await second.stop();
    const logged = await deliveries(endpoint.id);
    expect(logged).toHaveLength(total);
    for (const x of logged) expect(x).toMatchObject({ state: 'DELIVERED', attempts: 1 });

    // A server that died mid-attempt leaves its claim: once the claim runs out, it is sent again.
    const late = await transfer('claimed by a dead server');
    const dead = dispatcher({ timeoutMs: 60_000 });
    const dying = await receiver('hang');
    servers.push(dying);
    await pointAt(endpoint.id, dying.url);
    expect(await dead.poll()).toBe(1);
    await vi.waitFor(() => expect(dying.hanging()).toBe(1));
    // Its attempt never settles (the process is gone): nothing is recorded, the claim stands.
    await pointAt(endpoint.id, r.url);
    clock.advance(60_000 + 60_000 + 1);
    const third = running();
    await vi.waitFor(() => expect(statusesOf(r.received, late)).toEqual(['PENDING']), {
      timeout: 10_000,
      interval: 20,
    });
    await third.stop();
    // Its request ends now: what it would record is not the current claim's, and is not kept.
    dying.drop();
    await dead.idle();
    const [resent] = await deliveries(endpoint.id);
    // Two attempts, each recorded once: the dead one's answer (had it come) is not the holder's.
    expect(resent).toMatchObject({ state: 'DELIVERED', attempts: 2, lastStatusCode: 204 });
    await disable(endpoint.id);
  });
});

describe('where webhooks may go (SSRF)', () => {
  it('refuses private, loopback, link-local and metadata addresses at registration', async () => {
    const strict = makeApp(false);
    await actAsAdmin(strict, db, systemClock);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://localhost/hook',
    ]) {
      const res = await strict.request('/api/console/webhooks/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['TRANSACTION_STATUS_CHANGED'] }),
      });
      const body = (await res.json()) as { code: string; fields: Array<{ field: string }> };
      expect(res.status, url).toBe(400);
      expect(body.code).toBe('WEBHOOK_TARGET_REFUSED');
      expect(body.fields[0]?.field).toBe('url');
    }
    const bad = await strict.request('/api/console/webhooks/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'ftp://example.com/x', events: [] }),
    });
    expect(bad.status).toBe(400);
    const refusal = (await bad.json()) as { fields: Array<{ field: string; message: string }> };
    expect(refusal.fields.map((x) => x.field).sort()).toEqual(['events', 'url']);
  });

  it('classifies addresses, and checks what a name resolves to', async () => {
    for (const a of [
      '10.0.0.1',
      '172.16.5.5',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::ffff:10.0.0.1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:7f00:1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34'])
      expect(isPrivateAddress(a), a).toBe(false);
    // A public-looking name that resolves inside is refused.
    await expect(
      checkTarget('https://hooks.example.test/x', { allowPrivate: false }, () =>
        Promise.resolve(['203.0.114.9', '10.0.0.7']),
      ),
    ).rejects.toMatchObject({ code: 'WEBHOOK_TARGET_REFUSED' });
    await expect(
      checkTarget('https://hooks.example.test/x', { allowPrivate: false }, () =>
        Promise.resolve(['93.184.216.34']),
      ),
    ).resolves.toBeUndefined();
    // At delivery the connection's own lookup refuses a name rebound inside.
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup({ allowPrivate: false }, () => Promise.resolve(['127.0.0.1']))(
        'rebound.example.test',
        {},
        (e) => resolve(e),
      ),
    );
    expect(error?.code).toBe('WEBHOOK_TARGET_REFUSED');
  });

  it('refuses at delivery an endpoint that points inside, without connecting', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    await transfer('to a private address');
    await deliverDue(dispatcher({ targets: { allowPrivate: false } }));
    const [refused] = await deliveries(endpoint.id);
    expect(refused?.state).toBe('PENDING');
    expect(refused?.lastError).toBe('refused: 127.0.0.1 is a private or reserved address');
    expect(r.received).toHaveLength(0);
    await disable(endpoint.id);
  });
});

describe('the settings page: counts, rows and a test event', () => {
  it('a delivery log answers its counts by state from the same read as its rows', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    await transfer('counted and delivered');
    await deliverDue(dispatcher());
    // Queued, not yet sent: the log and its counts both say pending.
    await transfer('counted and pending');

    const res = await call('GET', `/api/console/webhooks/${endpoint.id}/deliveries/?limit=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.results as WebhookDelivery[];
    const tally = (state: string) => rows.filter((d) => d.state === state).length;
    expect(res.body.deliveries).toEqual({
      pending: tally('PENDING'),
      delivered: tally('DELIVERED'),
      failed: tally('FAILED'),
    });
    expect(res.body.deliveries).toEqual({ pending: 1, delivered: 1, failed: 0 });

    // A filtered page still counts the whole log: the counters above the table stay whole.
    const delivered = await call(
      'GET',
      `/api/console/webhooks/${endpoint.id}/deliveries/?state=DELIVERED`,
    );
    expect(delivered.body.results).toHaveLength(1);
    expect(delivered.body.deliveries).toEqual({ pending: 1, delivered: 1, failed: 0 });
    await disable(endpoint.id);
  });

  it('each delivery names its transaction: id, category, amount, asset, chain and destination', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url, { events: ['TRANSACTION_STATUS_CHANGED'] });
    const id = await transfer('named in the log');
    const [row] = await deliveries(endpoint.id);
    expect(row).toMatchObject({
      transactionId: id,
      test: false,
      transaction: {
        id,
        category: 'TRANSFER',
        amount: '0.01',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
      },
    });
    await disable(endpoint.id);
  });

  it('sends a signed test event now, answers its result, and logs it marked as a test', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url, { signatureEncoding: 'UNESCAPED' });
    const sent = await call('POST', `/api/console/webhooks/${endpoint.id}/test-event/`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({
      test: true,
      event: 'WEBHOOK_TEST',
      state: 'DELIVERED',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      transactionId: null,
      transaction: null,
    });
    expect(Date.parse(String(sent.body.lastAttemptAt))).toBe(clock.now().getTime());
    expect(sent.body.lastLatencyMs).toBeGreaterThanOrEqual(0);

    // Sent before the answer, signed as every event: both SDK examples verify it.
    expect(r.received).toHaveLength(1);
    const [got] = r.received;
    expect(got?.json).toMatchObject({
      event: 'WEBHOOK_TEST',
      version: '2.0.0',
      eventId: sent.body.eventId,
    });
    expect(jsExampleAccepts(got?.headers ?? {}, got?.body ?? '', endpoint.verificationKey)).toBe(
      true,
    );
    expect(
      pythonExampleAccepts(got?.headers ?? {}, got?.body ?? '', endpoint.verificationKey),
    ).toBe(true);

    // In the log, first, marked as a test, and counted.
    const log = await call('GET', `/api/console/webhooks/${endpoint.id}/deliveries/`);
    expect((log.body.results as WebhookDelivery[])[0]).toEqual(sent.body);
    expect(log.body.deliveries).toEqual({ pending: 0, delivered: 1, failed: 0 });
    // Settled: the dispatcher has nothing more to send.
    expect(await dispatcher().poll()).toBe(0);

    // A receiver that fails: the answer says how, and the test is not retried.
    r.set('fail');
    const failed = await call('POST', `/api/console/webhooks/${endpoint.id}/test-event/`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      test: true,
      state: 'FAILED',
      lastStatusCode: 500,
      lastError: 'answered 500: database down',
      nextAttemptAt: null,
    });
    expect(
      (await call('GET', `/api/console/webhooks/${endpoint.id}/deliveries/`)).body.deliveries,
    ).toEqual({ pending: 0, delivered: 1, failed: 1 });
    expect(await dispatcher().poll()).toBe(0);

    // Nobody listening: the error, no status code.
    await r.close();
    const unreachable = await call('POST', `/api/console/webhooks/${endpoint.id}/test-event/`);
    expect(unreachable.body).toMatchObject({ state: 'FAILED', lastStatusCode: null });
    expect(String(unreachable.body.lastError)).toMatch(/^ECONNREFUSED/);
    await disable(endpoint.id);
  });

  it('only an admin of every sub-organization may send one, with the CSRF token; others send nothing', async () => {
    const r = await receiver();
    servers.push(r);
    const endpoint = await register(r.url);
    const url = `/api/console/webhooks/${endpoint.id}/test-event/`;
    const viewer = await signInStaff(app, db, systemClock, { role: 'viewer' });
    expect((await viewer.request(url, { method: 'POST' })).status).toBe(403);
    const approver = await signInStaff(app, db, systemClock, { role: 'approver' });
    expect((await approver.request(url, { method: 'POST' })).status).toBe(403);
    const [subOrg] = await db.select().from(subOrgs).where(eq(subOrgs.orgId, orgId)).limit(1);
    const restricted = await signInStaff(app, db, systemClock, {
      role: 'admin',
      subOrgIds: [subOrg?.id ?? 'none'],
    });
    const refused = await restricted.request(url, { method: 'POST' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('OUTSIDE_ADMIN_SCOPE');
    // An admin's session without its CSRF token: refused before anything is sent.
    const admin = await signInStaff(app, db, systemClock, { role: 'admin' });
    const noCsrf = await admin.request(url, {
      method: 'POST',
      headers: { [CSRF_HEADER]: 'not-the-token' },
    });
    expect(noCsrf.status).toBe(403);
    expect(r.received).toHaveLength(0);
    // An endpoint that does not exist.
    expect(
      (await admin.request('/api/console/webhooks/whe_nope/test-event/', { method: 'POST' }))
        .status,
    ).toBe(404);
    await disable(endpoint.id);
  });
});

describe("the console's receiver", () => {
  const url = '/api/webhooks/custody/';
  const body = (eventId: string, memo = 'plain') => ({
    event: 'TRANSACTION_STATUS_CHANGED',
    version: '2.0.0',
    eventId,
    data: {
      transaction: {
        id: 'tx-1',
        orgId,
        vaultId: 'v',
        status: 'SIGNED',
        transactionType: 'OUTGOING',
        category: 'TRANSFER',
        subCategory: 'EXTERNAL_TRANSFER',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:01:00.000Z',
        isDeleted: false,
        amount: '1',
        memo,
      },
    },
  });
  const send = (payload: unknown, text: string, signature: string, timestamp: number) =>
    app.request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'X-Signature': signature,
        'X-Timestamp': String(timestamp),
      },
      body: text,
    });
  const now = () => Math.floor(Date.now() / 1000);
  const nextRecorded = () => new Promise<void>((resolve) => recordedWaiters.push(resolve));

  it('accepts a good signature (either SDK writing), stores it once and answers; refuses a replay', async () => {
    const payload = body('evt-good-1', 'Café');
    // Signed as the Python example writes it, sent as JSON.stringify writes it.
    const ts = now();
    const waited = nextRecorded();
    const res = await send(
      payload,
      JSON.stringify(payload),
      signatureOf(RECEIVER_KEY, pythonDumps(payload), ts),
      ts,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, eventId: 'evt-good-1' });
    await waited;
    expect(recorded.filter((e) => e.eventId === 'evt-good-1')).toEqual([
      {
        eventId: 'evt-good-1',
        kind: 'transaction.status',
        transactionId: 'tx-1',
        subOrgId: null,
        status: 'SIGNED',
        at: '2026-01-01T00:01:00.000Z',
      },
    ]);
    // Signed as the JavaScript example writes it.
    const other = body('evt-good-2', 'Café');
    const waited2 = nextRecorded();
    const text = JSON.stringify(sortKeysLikeJsExample(other));
    const res2 = await send(other, text, signatureOf(RECEIVER_KEY, text, ts), ts);
    expect(res2.status).toBe(200);
    await waited2;
    // The same request again: refused, and not processed twice.
    const replay = await send(
      payload,
      JSON.stringify(payload),
      signatureOf(RECEIVER_KEY, pythonDumps(payload), ts),
      ts,
    );
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ code: 'WEBHOOK_REPLAYED' });
    const later = body('evt-good-3');
    const waited3 = nextRecorded();
    const t3 = pythonDumps(later);
    expect((await send(later, t3, signatureOf(RECEIVER_KEY, t3, ts), ts)).status).toBe(200);
    await waited3;
    expect(recorded.filter((e) => e.eventId === 'evt-good-1')).toHaveLength(1);
  });

  it('refuses a bad signature, a stale timestamp and missing headers, processing nothing', async () => {
    const payload = body('evt-bad-1');
    const text = pythonDumps(payload);
    const ts = now();
    const wrongKey = await send(payload, text, signatureOf('another-key-0123456789', text, ts), ts);
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toMatchObject({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    const tampered = { ...payload, eventId: 'evt-bad-2' };
    const res = await send(
      tampered,
      JSON.stringify(tampered),
      signatureOf(RECEIVER_KEY, text, ts),
      ts,
    );
    expect(res.status).toBe(401);
    const stale = ts - 301;
    const old = await send(payload, text, signatureOf(RECEIVER_KEY, text, stale), stale);
    expect(old.status).toBe(401);
    expect(await old.json()).toMatchObject({
      code: 'WEBHOOK_TIMESTAMP_STALE',
      fields: [{ field: 'X-Timestamp' }],
    });
    // From the clock now, not `ts`: the sends above take time, and a second of it
    // would bring `ts + 301` back within the tolerance.
    const future = now() + 360;
    expect(
      (await send(payload, text, signatureOf(RECEIVER_KEY, text, future), future)).status,
    ).toBe(401);
    const bare = await app.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ fields: [{ field: 'X-Signature' }] });
    // The refused eventId was never recorded: its good delivery is still accepted.
    const waited = nextRecorded();
    expect((await send(payload, text, signatureOf(RECEIVER_KEY, text, ts), ts)).status).toBe(200);
    await waited;
    // Once, and only its good delivery (another test's event may land meanwhile).
    expect(recorded.filter((e) => e.eventId === 'evt-bad-1')).toHaveLength(1);
  });

  it('accepts what the sandbox signs, in either writing', async () => {
    const payload = body('evt-sandbox-1', '東京');
    const ts = now();
    for (const encoding of ['ASCII_ESCAPED', 'UNESCAPED'] as const) {
      const p = { ...payload, eventId: `evt-sandbox-${encoding}` };
      const text = canonicalJson(p, encoding);
      const waited = nextRecorded();
      expect((await send(p, text, signatureOf(RECEIVER_KEY, text, ts), ts)).status).toBe(200);
      await waited;
    }
  });
});

describe("the console's receiver reads a body only once the headers could sign it (real HTTP)", () => {
  const url = '/api/webhooks/custody/';
  const served = async (key: string | null) => {
    const server = await listen(makeApp(true, key));
    servers.push(server);
    return server.port;
  };
  const signedHeaders = (text: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return {
      'X-Signature': signatureOf(RECEIVER_KEY, text, ts),
      'X-Timestamp': String(ts),
    };
  };
  /**
   * A POST whose body never ends: the headers and `sent` bytes of it, then nothing. Its
   * answer, if one comes, was given without the body.
   */
  async function stalledPost(
    port: number,
    headers: Record<string, string>,
    sent = 16 * 1024,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }> {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: url,
      headers: { Host: 'localhost', 'Content-Type': 'application/json', ...headers },
    });
    req.on('error', () => {}); // the server may close the connection after answering
    req.write('{"event":"' + 'x'.repeat(sent));
    try {
      const [res] = (await once(req, 'response')) as [http.IncomingMessage];
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) };
    } finally {
      req.destroy();
    }
  }
  const framings: Record<string, string>[] = [
    { 'Content-Length': String(MAX_WEBHOOK_BODY_BYTES - 1) },
    { 'Transfer-Encoding': 'chunked' },
  ];

  it('without CUSTODY_WEBHOOK_KEY: 503 at once, the body never read, the connection closed', async () => {
    const port = await served(null);
    for (const framing of framings) {
      const res = await stalledPost(port, { ...signedHeaders('{}'), ...framing });
      expect(res.status).toBe(503);
      expect(ApiErrorBody.parse(res.body).code).toBe('WEBHOOK_RECEIVER_OFF');
      expect(res.headers['connection']).toBe('close');
    }
  });

  it('without X-Signature or X-Timestamp, or with a stale one: 401 at once, the body never read', async () => {
    const port = await served(RECEIVER_KEY);
    const stale = String(Math.floor(Date.now() / 1000) - 3600);
    const callers: Array<[string, Record<string, string>, string]> = [
      ['no headers', {}, 'X-Signature'],
      ['no timestamp', { 'X-Signature': 'ab'.repeat(32) }, 'X-Timestamp'],
      ['no signature', { 'X-Timestamp': String(Math.floor(Date.now() / 1000)) }, 'X-Signature'],
      [
        'a stale timestamp',
        { 'X-Signature': 'ab'.repeat(32), 'X-Timestamp': stale },
        'X-Timestamp',
      ],
    ];
    for (const [name, headers, field] of callers)
      for (const framing of framings) {
        const res = await stalledPost(port, { ...headers, ...framing });
        expect(res.status, name).toBe(401);
        expect(ApiErrorBody.parse(res.body).fields?.[0]?.field, name).toBe(field);
        expect(res.headers['connection'], name).toBe('close');
      }
  });

  it(`a body over ${MAX_WEBHOOK_BODY_BYTES} bytes: 413, declared or counted as it streams`, async () => {
    const port = await served(RECEIVER_KEY);
    const declared = await stalledPost(port, {
      ...signedHeaders('{}'),
      'Content-Length': String(MAX_WEBHOOK_BODY_BYTES + 1),
    });
    expect(declared.status).toBe(413);
    expect(ApiErrorBody.parse(declared.body).code).toBe('BODY_TOO_LARGE');
    expect(declared.headers['connection']).toBe('close');
    // Chunked, with no length to judge by: refused once it passes the limit, not read to its end.
    const streamed = await stalledPost(
      port,
      { ...signedHeaders('{}'), 'Transfer-Encoding': 'chunked' },
      MAX_WEBHOOK_BODY_BYTES + 1,
    );
    expect(streamed.status).toBe(413);
    expect(ApiErrorBody.parse(streamed.body).code).toBe('BODY_TOO_LARGE');
  });

  it('a signed event of exactly the limit is read and accepted', async () => {
    const event = (padding: string) => ({
      event: 'TRANSACTION_STATUS_CHANGED',
      version: '2.0.0',
      eventId: `evt-limit-${crypto.randomUUID()}`,
      data: {
        transaction: {
          id: 'tx-limit',
          orgId,
          vaultId: 'v',
          status: 'SIGNED',
          transactionType: 'OUTGOING',
          category: 'TRANSFER',
          subCategory: 'EXTERNAL_TRANSFER',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:01:00.000Z',
          isDeleted: false,
          amount: '1',
        },
        padding,
      },
    });
    const empty = canonicalJson(event(''), 'ASCII_ESCAPED');
    const payload = event('p'.repeat(MAX_WEBHOOK_BODY_BYTES - empty.length));
    const text = canonicalJson(payload, 'ASCII_ESCAPED');
    expect(text.length).toBe(MAX_WEBHOOK_BODY_BYTES);
    const res = await app.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...signedHeaders(text) },
      body: text,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ received: true, eventId: payload.eventId });
  });

  it(`a signed body that stalls: 408 after ${WEBHOOK_BODY_READ_TIMEOUT_MS / 1000} s, sooner than the API's`, async () => {
    const port = await served(RECEIVER_KEY);
    const res = await stalledPost(port, {
      ...signedHeaders('{}'),
      'Content-Length': String(MAX_WEBHOOK_BODY_BYTES - 1),
    });
    expect(res.status).toBe(408);
    expect(ApiErrorBody.parse(res.body)).toMatchObject({
      code: 'REQUEST_TIMEOUT',
      message: `The request body did not arrive within ${WEBHOOK_BODY_READ_TIMEOUT_MS / 1000} s; send it again`,
    });
    expect(res.headers['connection']).toBe('close');
  });
});
