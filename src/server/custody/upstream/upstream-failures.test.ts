import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import type { Transaction } from '#contract/transaction.ts';
import { bankAccounts, transactions } from '../../db/schema/sandbox.ts';
import { PROBE_FRESH_MS } from '../../http/cached-probe.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import {
  twoConsolesTest,
  type FetchInterceptor,
  type TwoConsoles,
} from '../../test/two-consoles.ts';

// What staff see when the custody API misbehaves: B is real, and the test
// stands between A and B only to lose or hold back an answer.
const TIMEOUT_MS = 2_000;
const upstreamTest = twoConsolesTest({ timeoutMs: TIMEOUT_MS });

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const transfer = (t: TwoConsoles, externalId: string) => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: t.fixture.treasury.id },
  destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
  amount: '0.01',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  externalId,
});

/** Resolves never; rejects when A gives up on the call (its timeout). */
function heldUntilAbort(init: RequestInit | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
  });
}

const isCreate = (input: unknown, init: RequestInit | undefined) =>
  init?.method === 'POST' && String(input).endsWith(paths.transactions());

async function heldInB(t: TwoConsoles, externalId: string) {
  return t.b.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.orgId, t.b.orgId), eq(transactions.externalId, externalId)));
}

describe('a create whose answer is lost', () => {
  upstreamTest(
    'is found by its externalId and answered, never created twice',
    async ({ t, initiator }) => {
      // B creates it; the answer never reaches A.
      const loseAnswer: FetchInterceptor = async (send, input, init) => {
        if (!isCreate(input, init)) return send(input, init);
        await (await send(input, init)).text();
        return heldUntilAbort(init);
      };
      t.intercept = loseAnswer;
      const externalId = `lost-answer-${Date.now()}`;
      const res = await initiator.json(paths.transactions(), post(transfer(t, externalId)));
      t.intercept = null;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [row] = await heldInB(t, externalId);
      expect(res.body).toMatchObject({ id: row?.id, externalId, status: 'PENDING' });

      // Sending it again cannot double it: B refuses the externalId.
      const again = await initiator.json(paths.transactions(), post(transfer(t, externalId)));
      expect(again).toMatchObject({ status: 400, body: { code: 'DUPLICATE_EXTERNAL_ID' } });
      expect(await heldInB(t, externalId)).toHaveLength(1);

      // Another member decides it through A as usual.
      const admin = await t.signIn('admin');
      const id = String((res.body as Transaction).id);
      const { approvalId } = ApprovalMessageResponse.parse(
        (await admin.json(`${paths.approvalMessage()}?entityId=${id}`)).body,
      );
      expect(
        (
          await admin.json(
            paths.approvalAction(approvalId),
            post({ action: 'reject', reason: 'test' }),
          )
        ).status,
      ).toBe(200);
    },
  );

  upstreamTest(
    'that never reached B is a 504 saying that sending it again is safe',
    async ({ t, initiator }) => {
      t.intercept = async (send, input, init) =>
        isCreate(input, init) ? heldUntilAbort(init) : send(input, init);
      const externalId = `never-sent-${Date.now()}`;
      const res = await initiator.json(paths.transactions(), post(transfer(t, externalId)));
      t.intercept = null;
      expect(res.status).toBe(504);
      expect(res.body).toMatchObject({
        code: 'UPSTREAM_TIMEOUT',
        requestId: expect.any(String),
        message: expect.stringContaining('sending it again is safe'),
      });
      expect(await heldInB(t, externalId)).toHaveLength(0);
    },
  );

  upstreamTest(
    'records the creator before sending, so the creator cannot approve a reconciled one',
    async ({ t }) => {
      t.intercept = async (send, input, init) => {
        if (!isCreate(input, init)) return send(input, init);
        await (await send(input, init)).text();
        return heldUntilAbort(init);
      };
      const creator = await t.signIn('admin');
      const res = await creator.json(paths.transactions(), post(transfer(t, `own-${Date.now()}`)));
      t.intercept = null;
      const id = String((res.body as Transaction).id);
      const { approvalId } = ApprovalMessageResponse.parse(
        (await creator.json(`${paths.approvalMessage()}?entityId=${id}`)).body,
      );
      const own = await creator.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
      expect(own).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
    },
  );
});

describe('a bank account whose create answer is lost or late', () => {
  const isBankAccountCreate = (input: unknown, init: RequestInit | undefined) =>
    init?.method === 'POST' && String(input).endsWith(paths.bankAccounts());
  const isBankAccountLookUp = (input: unknown, init: RequestInit | undefined) =>
    (init?.method ?? 'GET') === 'GET' && String(input).includes(`${paths.bankAccounts()}?`);

  const proposal = (accountName: string) => ({
    paymentMethod: 'US_ACH',
    accountName,
    accountNumber: `${Date.now()}`.slice(-12),
    routingNumber: '021000021',
    bankName: 'Lost Answer Bank',
    country: 'US',
  });

  async function idInB(t: TwoConsoles, accountName: string): Promise<string> {
    const [row] = await t.b.db
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(and(eq(bankAccounts.orgId, t.b.orgId), eq(bankAccounts.accountName, accountName)));
    if (!row) throw new Error(`no bank account ${accountName} in B`);
    return row.id;
  }

  async function decide(member: StaffSession, entityId: string, action: 'approve' | 'reject') {
    const message = await member.json(`${paths.approvalMessage()}?entityId=${entityId}`);
    expect(message.status, JSON.stringify(message.body)).toBe(200);
    const { approvalId } = ApprovalMessageResponse.parse(message.body);
    return member.json(
      paths.approvalAction(approvalId),
      post({ action, ...(action === 'reject' ? { reason: 'checked' } : {}) }),
    );
  }

  upstreamTest(
    'dropped, with the look-up failing too: its creator cannot approve it; another member can',
    async ({ t }) => {
      t.intercept = async (send, input, init) => {
        if (isBankAccountCreate(input, init)) {
          // B creates it; the answer never reaches A.
          await (await send(input, init)).text();
          return heldUntilAbort(init);
        }
        if (isBankAccountLookUp(input, init))
          return new Response('{"message":"down"}', { status: 503 });
        return send(input, init);
      };
      const creator = await t.signIn('admin');
      const accountName = `Dropped Answer ${Date.now()}`;
      const res = await creator.json(paths.bankAccounts(), post(proposal(accountName)));
      t.intercept = null;
      expect(res.status, JSON.stringify(res.body)).toBe(504);
      expect(res.body).toMatchObject({
        code: 'UPSTREAM_TIMEOUT',
        message: expect.stringContaining('not known yet'),
      });

      const id = await idInB(t, accountName);
      const own = await decide(creator, id, 'approve');
      expect(own).toMatchObject({ status: 403, body: { code: 'FOUR_EYES_UNRESOLVED' } });
      // Nothing was decided upstream.
      const [row] = await t.b.db
        .select({ status: bankAccounts.status })
        .from(bankAccounts)
        .where(eq(bankAccounts.id, id));
      expect(row?.status).toBe('PENDING');

      const other = await t.signIn('approver');
      expect(await decide(other, id, 'approve')).toMatchObject({ status: 200 });
    },
  );

  upstreamTest(
    'slow: while its answer is on its way, its creator cannot approve it; once it lands, still not',
    async ({ t }) => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let created!: () => void;
      const inB = new Promise<void>((resolve) => (created = resolve));
      t.intercept = async (send, input, init) => {
        if (!isBankAccountCreate(input, init)) return send(input, init);
        const answer = await send(input, init);
        created();
        await released;
        return answer;
      };
      const creator = await t.signIn('admin');
      const accountName = `Slow Answer ${Date.now()}`;
      const pending = creator.json(paths.bankAccounts(), post(proposal(accountName)));
      await inB;
      const id = await idInB(t, accountName);
      // The creator sees it listed upstream before the console has its answer.
      expect(await decide(creator, id, 'approve')).toMatchObject({
        status: 403,
        body: { code: 'FOUR_EYES_UNRESOLVED' },
      });
      release();
      const res = await pending;
      t.intercept = null;
      expect(res).toMatchObject({ status: 200, body: { id } });
      expect(await decide(creator, id, 'approve')).toMatchObject({
        status: 403,
        body: { code: 'FOUR_EYES' },
      });
      const other = await t.signIn('approver');
      expect(await decide(other, id, 'reject')).toMatchObject({ status: 200 });
    },
  );

  upstreamTest(
    'a proposal refused outright leaves no intent: its member may decide the same account proposed again by another',
    async ({ t }) => {
      const first = await t.signIn('admin');
      const accountName = `Refused First ${Date.now()}`;
      const account = proposal(accountName);
      t.intercept = async (send, input, init) =>
        isBankAccountCreate(input, init)
          ? new Response(JSON.stringify({ message: 'no', code: 'VALIDATION_ERROR' }), {
              status: 400,
              headers: { 'Content-Type': 'application/json' },
            })
          : send(input, init);
      expect((await first.json(paths.bankAccounts(), post(account))).status).toBe(400);
      t.intercept = null;
      const second = await t.signIn('initiator');
      expect((await second.json(paths.bankAccounts(), post(account))).status).toBe(200);
      expect(await decide(first, await idInB(t, accountName), 'approve')).toMatchObject({
        status: 200,
      });
    },
  );
});

describe('four-eyes by externalId', () => {
  upstreamTest(
    'a member whose create was refused is not its creator; the member whose create landed is',
    async ({ t }) => {
      const externalId = `shared-${Date.now()}`;
      const first = await t.signIn('admin');
      const refused = await first.json(
        paths.transactions(),
        post({
          ...transfer(t, externalId),
          destination: { type: 'CONTACT', id: t.fixture.contacts.ethPending.id },
        }),
      );
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      const second = await t.signIn('admin');
      const landed = await second.json(paths.transactions(), post(transfer(t, externalId)));
      expect(landed.status, JSON.stringify(landed.body)).toBe(200);
      const id = String((landed.body as Transaction).id);
      const { approvalId } = ApprovalMessageResponse.parse(
        (await second.json(`${paths.approvalMessage()}?entityId=${id}`)).body,
      );
      const own = await second.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
      expect(own).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      const other = await first.json(
        paths.approvalAction(approvalId),
        post({ action: 'reject', reason: 'checked by another member' }),
      );
      expect(other).toMatchObject({ status: 200, body: { status: 'REJECTED' } });
    },
  );
});

describe('an upstream that is slow, busy or flaky', () => {
  upstreamTest(
    'a read B does not answer in time is 504 UPSTREAM_TIMEOUT with the request id',
    async ({ t, initiator }) => {
      t.intercept = async (_send, _input, init) => heldUntilAbort(init);
      const res = await initiator.request(paths.assets(), {
        headers: { 'X-Request-Id': 'slow-1' },
      });
      t.intercept = null;
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({
        code: 'UPSTREAM_TIMEOUT',
        requestId: res.headers.get('X-Request-Id'),
      });
    },
  );

  upstreamTest(
    'a read is retried after a 503 and answers when B recovers',
    async ({ t, initiator }) => {
      let calls = 0;
      t.intercept = async (send, input, init) => {
        calls += 1;
        if (calls === 1) return new Response('{"message":"busy"}', { status: 503 });
        return send(input, init);
      };
      const res = await initiator.json(paths.supportedChains());
      t.intercept = null;
      expect(res.status).toBe(200);
      expect(calls).toBe(2);
    },
  );

  upstreamTest(
    'a create is never retried blindly after a 5xx: it is looked up instead',
    async ({ t, initiator }) => {
      let creates = 0;
      t.intercept = async (send, input, init) => {
        if (!isCreate(input, init)) return send(input, init);
        creates += 1;
        return new Response('{"message":"upstream broke"}', { status: 500 });
      };
      const externalId = `five-hundred-${Date.now()}`;
      const res = await initiator.json(paths.transactions(), post(transfer(t, externalId)));
      t.intercept = null;
      expect(creates).toBe(1);
      expect(res).toMatchObject({ status: 502, body: { code: 'UPSTREAM_UNAVAILABLE' } });
    },
  );

  upstreamTest('a 429 passes its Retry-After to the browser', async ({ t, initiator }) => {
    t.intercept = async () =>
      new Response(JSON.stringify({ message: 'Too many requests', code: 'RATE_LIMITED' }), {
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '7' },
      });
    const res = await initiator.request(paths.assets());
    t.intercept = null;
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('7');
    expect(await res.json()).toEqual({ message: 'Too many requests', code: 'RATE_LIMITED' });
  });

  upstreamTest(
    'B refusing the console API user is a 502 for staff, not a 401 that would sign them out',
    async ({ t, initiator }) => {
      t.intercept = async () =>
        new Response(JSON.stringify({ message: 'bad token', code: 'TOKEN_BAD_SIGNATURE' }), {
          status: 401,
        });
      const res = await initiator.json(paths.assets());
      t.intercept = null;
      expect(res).toMatchObject({ status: 502, body: { code: 'UPSTREAM_AUTH_FAILED' } });
    },
  );
});

describe('B stopped', () => {
  upstreamTest(
    '/readyz is 200 while B answers a signed read, 503 with the reason once it stops; reads are 502',
    async ({ t, initiator }) => {
      const ready = await t.a.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', backend: 'upstream' });

      await t.stopB();
      // The last probe's outcome answers for 10 s (http/cached-probe.ts).
      t.clock.advance(PROBE_FRESH_MS);
      const notReady = await t.a.request('/readyz');
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({
        status: 'unavailable',
        reason: expect.stringContaining('could not be reached'),
      });
      const res = await initiator.request(paths.transactions(), {
        headers: { 'X-Request-Id': 'b-down' },
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        requestId: res.headers.get('X-Request-Id'),
      });
      // /healthz is liveness only: A itself is fine.
      expect((await t.a.request('/healthz')).status).toBe(200);
    },
  );
});
