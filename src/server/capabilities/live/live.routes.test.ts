import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pino } from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvents } from '#contract/endpoints/live.ts';
import type {
  ApprovalLiveEvent,
  TransactionLiveEvent as LiveEvent,
} from '#contract/live-events.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { createApp, type App } from '../../app.ts';
import { transition } from '../../custody/sandbox/engine/transitions.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { sessions } from '../../db/schema/console.ts';
import { createOrg, createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import { createManualClock, signInStaff, type StaffSession } from '../../test/staff-session.ts';
import { decideAsStaff, proposeBankAccount } from '../../test/staff-approvals.ts';
import { createTestDatabase, openSecondHandle } from '../../test/test-database.ts';
import { discardDraft, publishDraft, saveDraft } from '../policies/policies.store.ts';
import { createCustodyEventSink, createLiveHub, type LiveHub } from './index.ts';

/**
 * The browsers' event stream through the real app on a real database: what a
 * member receives (their sub-orgs only), resuming from Last-Event-ID, the
 * heartbeat, a stream's end and cleanup, the webhook sink, and two servers on
 * one database (`bash scripts/with-postgres.sh npx vitest run <this file>`
 * runs it on PostgreSQL, where the second server hears of changes by
 * LISTEN/NOTIFY alone).
 */

const EVENTS = liveEvents.path;
const clock = createManualClock();
let database: DatabaseHandle;
let second: DatabaseHandle;
let orgId: string;
let hub: LiveHub;
let app: App;
let hubB: LiveHub;
let appB: App;
let subA: string;
let subB: string;
let vaultA: string;
let vaultB: string;

function makeApp(db: DatabaseHandle, live: LiveHub): App {
  return createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createSandboxBackend({ db: db.db, orgId, clock }),
    database: db,
    live,
    logger: pino({ level: 'silent' }),
    auth: { db: db.db, clock },
  });
}

function hubOver(db: DatabaseHandle, heartbeatMs = 60_000): LiveHub {
  return createLiveHub({
    backend: 'sandbox',
    database: db,
    clock,
    logger: pino({ level: 'silent' }),
    heartbeatMs,
    maxStreamMs: 60 * 60_000,
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  second = openSecondHandle(database);
  orgId = (await createOrg(database.db)).id;
  subA = (await createSubOrg(database.db, orgId, 'Desk A')).id;
  subB = (await createSubOrg(database.db, orgId, 'Desk B')).id;
  vaultA = (await createVault(database.db, { orgId, subOrgId: subA })).id;
  vaultB = (await createVault(database.db, { orgId, subOrgId: subB })).id;
  hub = hubOver(database);
  app = makeApp(database, hub);
  hubB = hubOver(second);
  appB = makeApp(second, hubB);
});

afterAll(async () => {
  hub.close();
  hubB.close();
  await second.close();
  await database.close();
});

interface Frame {
  event: string;
  id?: string;
  data?: string;
  comment?: string;
}

/** Reads an SSE body frame by frame. */
class StreamReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private buffer = '';
  private readonly decoder = new TextDecoder();
  constructor(readonly res: Response) {
    if (!res.body) throw new Error('no body');
    this.reader = res.body.getReader();
  }

  /** The next frame, or undefined once the server ended the stream. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const frame: Frame = { event: 'message' };
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) frame.id = line.slice(4);
          else if (line.startsWith('event: ')) frame.event = line.slice(7);
          else if (line.startsWith('data: ')) frame.data = line.slice(6);
          else if (line.startsWith('retry: ')) frame.event = 'retry';
        }
        return frame;
      }
      const { value, done } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Frames up to and including the first that `stop` accepts. */
  async until(stop: (frame: Frame) => boolean): Promise<Frame[]> {
    const frames: Frame[] = [];
    for (;;) {
      const frame = await this.next();
      if (!frame) throw new Error(`the stream ended after ${JSON.stringify(frames)}`);
      frames.push(frame);
      if (stop(frame)) return frames;
    }
  }

  /** The changes up to the next one about `transactionId`. */
  async changesUntil(transactionId: string): Promise<LiveEvent[]> {
    const frames = await this.until(
      (f) =>
        f.event === 'change' &&
        (JSON.parse(f.data ?? '{}') as LiveEvent).transactionId === transactionId,
    );
    return frames
      .filter((f) => f.event === 'change')
      .map((f) => JSON.parse(f.data ?? '') as LiveEvent);
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

async function open(member: StaffSession, init: RequestInit = {}, on: App = app) {
  const res = await on.request(EVENTS, member.init(init));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(res.headers.get('content-encoding')).toBeNull();
  const stream = new StreamReader(res);
  const ready = (await stream.until((f) => f.event === 'ready')).at(-1);
  return { stream, readyId: ready?.id ?? '' };
}

const member = (subOrgIds: string[] | null, on: App = app) =>
  signInStaff({ request: on.request }, database.db, clock, { role: 'viewer', subOrgIds });

/** A transaction created PENDING in `subOrgId` (a status event), and its move to APPROVED. */
async function pending(subOrgId: string, vaultId: string) {
  return createTransaction(database.db, { orgId, subOrgId, vaultId, status: 'PENDING' });
}
async function approve(transactionId: string) {
  await transition(database.db, {
    transactionId,
    from: 'PENDING',
    to: 'APPROVED',
    at: clock.now(),
    nextStepAt: null,
  });
}

describe('GET /api/console/events', () => {
  it('refuses a caller without a session (401)', async () => {
    const res = await app.request(EVENTS);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: expect.any(String) });
  });

  it('sends a member the status changes of their sub-orgs and never another’s', async () => {
    const deskA = await member([subA]);
    const everyone = await member(null);
    const { stream } = await open(deskA);
    const { stream: all } = await open(everyone);

    const other = await pending(subB, vaultB);
    await approve(other.id);
    const mine = await pending(subA, vaultA);
    await approve(mine.id);

    const seen = await stream.changesUntil(mine.id);
    while (seen.filter((e) => e.transactionId === mine.id).length < 2)
      seen.push(...(await stream.changesUntil(mine.id)));
    expect(seen.map((e) => [e.transactionId, e.status])).toEqual([
      [mine.id, 'PENDING'],
      [mine.id, 'APPROVED'],
    ]);
    expect(seen[1]).toEqual({
      kind: 'transaction.status',
      transactionId: mine.id,
      subOrgId: subA,
      status: 'APPROVED',
      at: clock.now().toISOString(),
    });
    // An unrestricted member sees both desks.
    const both = await all.changesUntil(mine.id);
    expect(both.map((e) => [e.transactionId, e.status])).toEqual([
      [other.id, 'PENDING'],
      [other.id, 'APPROVED'],
      [mine.id, 'PENDING'],
    ]);
    await Promise.all([stream.cancel(), all.cancel()]);
  });

  it('resumes after Last-Event-ID with exactly the events missed', async () => {
    const deskA = await member([subA]);
    const first = await open(deskA);
    const before = await pending(subA, vaultA);
    const [seen] = (await first.stream.until((f) => f.event === 'change')).slice(-1);
    expect(JSON.parse(seen?.data ?? '')).toMatchObject({ transactionId: before.id });
    await first.stream.cancel();

    const missedA = await pending(subA, vaultA);
    await pending(subB, vaultB);
    await approve(missedA.id);

    const again = await deskA.request(
      EVENTS,
      deskA.init({ headers: { 'Last-Event-ID': seen?.id ?? '' } }),
    );
    const againReader = new StreamReader(again);
    const resumed = await againReader.until((f) => f.event === 'ready');
    expect(
      resumed
        .filter((f) => f.event === 'change')
        .map((f) => JSON.parse(f.data ?? '') as LiveEvent)
        .map((e) => [e.transactionId, e.status]),
    ).toEqual([
      [missedA.id, 'PENDING'],
      [missedA.id, 'APPROVED'],
    ]);
    // The same, asked by a new EventSource that cannot set headers.
    const byQuery = await deskA.request(`${EVENTS}?lastEventId=${seen?.id ?? ''}`);
    const byQueryReader = new StreamReader(byQuery);
    const alsoResumed = await byQueryReader.until((f) => f.event === 'ready');
    expect(alsoResumed.filter((f) => f.event === 'change')).toHaveLength(2);
    await Promise.all([againReader.cancel(), byQueryReader.cancel()]);
  });

  it('refuses a Last-Event-ID it did not send, naming it (400)', async () => {
    const deskA = await member([subA]);
    const res = await deskA.request(
      EVENTS,
      deskA.init({ headers: { 'Last-Event-ID': 'yesterday' } }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: [
        { field: 'Last-Event-ID', message: expect.stringContaining('Last-Event-ID must be') },
      ],
    });
  });

  it('tells a stream too far behind to refetch (reset)', async () => {
    const deskA = await member([subA]);
    const res = await deskA.request(
      EVENTS,
      deskA.init({ headers: { 'Last-Event-ID': '999999999-0' } }),
    );
    const reader = new StreamReader(res);
    const frames = await reader.until((f) => f.event === 'ready');
    expect(frames.map((f) => f.event)).toEqual(['retry', 'reset', 'ready']);
    await reader.cancel();
  });

  it('forgets a stream the browser closed', async () => {
    const quiet = hubOver(database);
    const quietApp = makeApp(database, quiet);
    const viewer = await member(null, quietApp);
    const { stream } = await open(viewer, {}, quietApp);
    expect(quiet.size).toBe(1);
    await stream.cancel();
    expect(quiet.size).toBe(0);
  });
});

describe('heartbeat and a stream’s end', () => {
  it('writes a comment on an idle stream, and ends a stream after its time for a fresh check', async () => {
    const beating = createLiveHub({
      backend: 'sandbox',
      database,
      clock,
      logger: pino({ level: 'silent' }),
      heartbeatMs: 20,
      maxStreamMs: 60_000,
    });
    const beatingApp = makeApp(database, beating);
    const viewer = await member(null, beatingApp);
    const { stream } = await open(viewer, {}, beatingApp);
    const [beat] = (await stream.until((f) => f.comment !== undefined)).slice(-1);
    expect(beat?.comment).toBe('keep-alive');
    clock.advance(60_000);
    // The next beat finds its time up and closes it: the browser reconnects through the session check.
    for (;;) if (!(await stream.next())) break;
    expect(beating.size).toBe(0);
  });
});

describe('a stream ends with its session', () => {
  /**
   * The frames up to the end of the stream, or up to the first change (which a stream of an
   * ended session must never be sent).
   */
  async function untilEndOrChange(stream: StreamReader): Promise<Frame[]> {
    const frames: Frame[] = [];
    for (;;) {
      const frame = await stream.next();
      if (!frame) return frames;
      frames.push(frame);
      if (frame.event === 'change') return frames;
    }
  }

  it('sign-out ends the member’s streams on this server and on another: no event after it', async () => {
    const deskA = await member([subA]);
    const here = await open(deskA);
    const there = await open(deskA, {}, appB);
    const bystander = await open(await member([subA]));
    const out = await app.request('/auth/logout', deskA.init({ method: 'POST' }));
    expect(out.status).toBe(204);
    // A change after the sign-out: it reaches a member still signed in, and neither stream of
    // the one who signed out.
    const after = await pending(subA, vaultA);
    expect((await bystander.stream.changesUntil(after.id)).at(-1)?.transactionId).toBe(after.id);
    expect((await untilEndOrChange(here.stream)).filter((f) => f.event === 'change')).toEqual([]);
    expect((await untilEndOrChange(there.stream)).filter((f) => f.event === 'change')).toEqual([]);
    await bystander.stream.cancel();
  });

  it('a session ended elsewhere (an admin, a password change, the CLI) ends its stream, events or none', async () => {
    const deskA = await member([subA]);
    const { stream } = await open(deskA, {}, appB);
    // Caught up: what the stream is sent from here on is its own test's.
    const before = await pending(subA, vaultA);
    await stream.changesUntil(before.id);
    // Revoked by another process on the same database: nothing tells this server but the database.
    await database.db
      .update(sessions)
      .set({ revokedAt: clock.now() })
      .where(eq(sessions.staffId, deskA.member.id));
    expect(await untilEndOrChange(stream)).toEqual([]);
  });
});

describe('custody events from webhooks (the sink)', () => {
  it('records an event once per eventId and sends it to the streams of its sub-org', async () => {
    const sink = createCustodyEventSink(database.db, clock);
    const deskA = await member([subA]);
    const { stream, readyId } = await open(deskA);
    const event = {
      eventId: `evt-${crypto.randomUUID()}`,
      kind: 'transaction.operation.status' as const,
      transactionId: 'upstream-tx-1',
      subOrgId: subA,
      status: 'COMPLETED',
      at: '2026-11-26T10:00:00.000Z',
    };
    await sink.record({ ...event, eventId: `evt-${crypto.randomUUID()}`, subOrgId: subB });
    await sink.record(event);
    await sink.record(event);
    const [got] = await stream.changesUntil('upstream-tx-1');
    expect(got).toEqual({
      kind: 'transaction.operation.status',
      transactionId: 'upstream-tx-1',
      subOrgId: subA,
      status: 'COMPLETED',
      at: '2026-11-26T10:00:00.000Z',
    });
    await stream.cancel();
    // Stored once: a resume from before it replays it once.
    const res = await deskA.request(EVENTS, deskA.init({ headers: { 'Last-Event-ID': readyId } }));
    const reader = new StreamReader(res);
    const replayed = await reader.until((f) => f.event === 'ready');
    expect(replayed.filter((f) => f.event === 'change')).toHaveLength(1);
    await reader.cancel();
  });

  it('answers whether it stored an event; keeps it two days, the window a replay is refused in', async () => {
    // Three days back: its pruning reaches none of the other tests' events.
    const own = createManualClock(new Date(Date.now() - 72 * 60 * 60_000));
    const sink = createCustodyEventSink(database.db, own);
    const event = {
      eventId: `evt-${crypto.randomUUID()}`,
      kind: 'transaction.status' as const,
      transactionId: 'upstream-tx-kept',
      subOrgId: null,
      status: 'APPROVED',
      at: own.now().toISOString(),
    };
    expect(await sink.record(event)).toBe(true);
    expect(await sink.record(event)).toBe(false);
    own.advance(47 * 60 * 60_000);
    await sink.record({ ...event, eventId: `evt-${crypto.randomUUID()}` });
    expect(await sink.record(event)).toBe(false);
    // Past two days it is pruned as the next event is stored: a delivery that late is new.
    own.advance(2 * 60 * 60_000);
    await sink.record({ ...event, eventId: `evt-${crypto.randomUUID()}` });
    expect(await sink.record(event)).toBe(true);
  });

  it('refuses an event missing what it needs, naming the field', async () => {
    const sink = createCustodyEventSink(database.db, clock);
    await expect(
      sink.record({
        eventId: '',
        kind: 'transaction.status',
        transactionId: 't',
        subOrgId: null,
        status: 'APPROVED',
        at: 'last tuesday',
      }),
    ).rejects.toMatchObject({
      status: 400,
      fields: [
        { field: 'eventId', message: 'eventId is required and must not be empty' },
        { field: 'at', message: 'at must be an ISO 8601 date and time' },
      ],
    });
  });
});

describe('two servers on one database', () => {
  it('a change made through one reaches a stream held by the other', async () => {
    const deskA = await member([subA], appB);
    const { stream } = await open(deskA, {}, appB);
    // Through server A's own connection: a status change and a stored webhook event.
    const moved = await pending(subA, vaultA);
    await createCustodyEventSink(database.db, clock).record({
      eventId: `evt-${crypto.randomUUID()}`,
      kind: 'transaction.status',
      transactionId: moved.id,
      subOrgId: subA,
      status: 'PENDING',
      at: clock.now().toISOString(),
    });
    const seen = await stream.changesUntil(moved.id);
    expect(seen.at(-1)).toMatchObject({ transactionId: moved.id, status: 'PENDING' });
    const viaWebhook = await stream.changesUntil(moved.id);
    expect(viaWebhook.at(-1)).toMatchObject({ transactionId: moved.id, status: 'PENDING' });
    await stream.cancel();
  });
});

describe('approval events (bank accounts, contacts, policy votes)', () => {
  const as = (role: 'initiator' | 'approver', subOrgIds: string[] | null, on: App = app) =>
    signInStaff({ request: on.request }, database.db, clock, { role, subOrgIds });
  const approvalsOf = (frames: Frame[]) =>
    frames
      .filter((f) => f.event === 'change')
      .map((f) => JSON.parse(f.data ?? '') as ApprovalLiveEvent)
      .filter((e) => e.kind.startsWith('approval.'));
  /** The approval events up to the next one about `entityId`. */
  const approvalsUntil = async (stream: StreamReader, entityId: string) =>
    approvalsOf(
      await stream.until(
        (f) =>
          f.event === 'change' &&
          (JSON.parse(f.data ?? '{}') as ApprovalLiveEvent).entityId === entityId,
      ),
    );
  const proposeContact = async (proposer: StaffSession, subOrgId: string) => {
    const address = `0x${randomBytes(20).toString('hex')}`;
    const res = await proposer.json(paths.contacts(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Desk counterparty',
        address,
        blockChain: 'ETHEREUM',
        subOrgId,
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as { id: string }).id;
  };

  it('pushes a bank account’s proposal and decision to its sub-org’s members, never another’s', async () => {
    const deskA = await as('approver', [subA]);
    const deskB = await as('approver', [subB]);
    const proposer = await as('initiator', null);
    const { stream: a } = await open(deskA);
    const { stream: b } = await open(deskB);

    const theirs = await proposeBankAccount(proposer, subB);
    const ours = await proposeBankAccount(proposer, subA);
    const proposed = await approvalsUntil(a, ours);
    expect(proposed).toEqual([
      {
        kind: 'approval.proposed',
        entityType: 'BANK_ACCOUNT',
        entityId: ours,
        subOrgId: subA,
        status: 'PENDING',
        at: clock.now().toISOString(),
      },
    ]);
    await decideAsStaff(deskA, ours, 'approve');
    expect(await approvalsUntil(a, ours)).toEqual([
      expect.objectContaining({ kind: 'approval.decided', entityId: ours, status: 'APPROVED' }),
    ]);
    // Desk B's member heard of their own desk's proposal only.
    await decideAsStaff(deskB, theirs, 'reject', 'Not our counterparty');
    const seenByB = [...(await approvalsUntil(b, theirs)), ...(await approvalsUntil(b, theirs))];
    expect(seenByB.map((e) => [e.entityId, e.kind, e.status])).toEqual([
      [theirs, 'approval.proposed', 'PENDING'],
      [theirs, 'approval.decided', 'REJECTED'],
    ]);
    await Promise.all([a.cancel(), b.cancel()]);
  });

  it('pushes a contact’s proposal, and resumes after Last-Event-ID with the ones missed', async () => {
    const deskA = await as('approver', [subA]);
    const proposer = await as('initiator', null);
    const first = await open(deskA);
    await first.stream.cancel();

    const missed = await proposeContact(proposer, subA);
    await proposeContact(proposer, subB);
    await decideAsStaff(deskA, missed, 'approve');

    const res = await deskA.request(
      EVENTS,
      deskA.init({ headers: { 'Last-Event-ID': first.readyId } }),
    );
    const reader = new StreamReader(res);
    // Replayed before `ready`, or sent live just after when this server's tail had not yet
    // read them as the stream began: either way each once, in order, desk B's left out.
    const resumed = approvalsOf(
      await reader.until(
        (f) =>
          f.event === 'change' &&
          (JSON.parse(f.data ?? '{}') as ApprovalLiveEvent).kind === 'approval.decided',
      ),
    );
    expect(resumed.map((e) => [e.entityType, e.entityId, e.kind, e.status])).toEqual([
      ['CONTACT', missed, 'approval.proposed', 'PENDING'],
      ['CONTACT', missed, 'approval.decided', 'APPROVED'],
    ]);
    await reader.cancel();
  });

  it('pushes a member’s approval that a policy holds for more, to a stream on another server', async () => {
    const who = (s: StaffSession) => ({ id: s.member.id, name: s.member.name });
    const editor = await as('approver', null);
    const reviewer = await as('approver', null);
    const twoApprovals: Policy = {
      rules: [],
      fallback: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    };
    const use = async (policy: Policy) => {
      await discardDraft(database.db, 'accounts');
      const draft = await saveDraft(
        database.db,
        'accounts',
        { policy, revision: 0 },
        who(editor),
        clock.now(),
      );
      await publishDraft(database.db, 'accounts', draft.revision, who(reviewer), clock.now());
    };
    await use(twoApprovals);
    try {
      const watcher = await as('approver', [subA], appB);
      const { stream } = await open(watcher, {}, appB);
      const proposer = await as('initiator', null);
      const first = await as('approver', [subA]);
      const id = await proposeBankAccount(proposer, subA);
      expect((await approvalsUntil(stream, id)).map((e) => e.kind)).toEqual(['approval.proposed']);
      await decideAsStaff(first, id, 'approve');
      expect(await approvalsUntil(stream, id)).toEqual([
        {
          kind: 'approval.vote',
          entityType: 'BANK_ACCOUNT',
          entityId: id,
          subOrgId: subA,
          status: 'APPROVE',
          at: clock.now().toISOString(),
        },
      ]);
      await stream.cancel();
    } finally {
      await use(DEFAULT_POLICY);
    }
  });
});
