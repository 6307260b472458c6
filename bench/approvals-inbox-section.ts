import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { approvalInbox } from '../src/contract/endpoints/approvals.ts';
import { paths } from '../src/contract/paths.ts';
import { buildScenarios } from './latency.ts';
import { keepAliveAgent, percentile, runLoad, type RequestSpec } from './load.ts';
import { table } from './report.ts';
import type { BenchSection } from './section.ts';
import { ServerHost } from './server-host.ts';
import { callJson, signInAsDemo, type BenchSession } from './session.ts';

/**
 * What one page of the approvals inbox (20 items) and
 * the navigation's count (the smallest page, `limit=1`) cost on the seeded
 * sandbox, then again with PENDING_ITEMS more items waiting: transactions and
 * bank accounts an initiator proposed, read by an approver (so they count).
 * One connection, one request at a time: the cost of a read, not throughput.
 * When both reads still read every waiting item: page / count p50
 * 5.9 / 4.3 ms seeded and 26 / 22 ms with 2,000 more on PGlite, 4.7 / 3.0
 * and 19 / 19 ms on PostgreSQL; after, with 2,000 more, 0.7 / 0.5 ms asked
 * again and 5.4 / 3.2 ms walking on PGlite, 1.2 / 0.9 and 3.0 / 2.4 ms on
 * PostgreSQL (one run each, a shared 2-core machine at load 5-12).
 */

const PENDING_ITEMS = 2_000;
/** One in five of the added items is a bank account, the rest transfers. */
const ACCOUNT_EVERY = 5;
const CREATE_CONNECTIONS = 4;

interface InboxRow {
  pending: string;
  read: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface InboxCounts {
  totalCount: number;
  actionableCount: number;
}

/**
 * Each read twice: asked again and again, as the navigation's count is (the
 * read cache answers while nothing is written), and walking the inbox page
 * after page, where every request names a new cursor and so reads the
 * database (at most `requests` pages, fewer when the inbox ends first).
 */
async function measureInbox(
  agent: http.Agent,
  approver: BenchSession,
  pending: string,
  requests: number,
): Promise<InboxRow[]> {
  const rows: InboxRow[] = [];
  for (const [read, limit] of [
    ['page (limit=20)', 20],
    ['count (limit=1)', 1],
  ] as const) {
    const result = await runLoad({
      baseUrl: approver.baseUrl,
      headers: approver.headers,
      connections: 1,
      maxRequests: requests,
      maxDurationMs: 60_000,
      warmupRequests: 10,
      next: () => ({ method: 'GET', path: `${approvalInbox.path}?limit=${limit}` }),
    });
    if (result.non2xx > 0) throw new Error(`inbox ${read}: ${result.firstFailure}`);
    rows.push({
      pending,
      read: `${read}, again`,
      requests: result.requests,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      maxMs: result.maxMs,
    });

    // A first walk at another size (cursors of its own), unmeasured: the code path and the
    // database's plans warm, and the measured walk still misses the read cache on every page.
    await walk(agent, approver, limit + 2, 20);
    const latencies = await walk(agent, approver, limit, requests);
    latencies.sort((a, b) => a - b);
    rows.push({
      pending,
      read: `${read}, walking`,
      requests: latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? Number.NaN,
    });
  }
  return rows;
}

/** The inbox page after page at `limit`, up to `requests` pages: each request's milliseconds. */
async function walk(
  agent: http.Agent,
  approver: BenchSession,
  limit: number,
  requests: number,
): Promise<number[]> {
  const latencies: number[] = [];
  let cursor = '';
  while (latencies.length < requests) {
    const { body, ms } = await callJson<{ nextCursor?: string | null; hasNext?: boolean }>(
      agent,
      approver,
      { method: 'GET', path: `${approvalInbox.path}?limit=${limit}&cursor=${cursor}` },
    );
    latencies.push(ms);
    if (!body.hasNext || !body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return latencies;
}

/** PENDING_ITEMS new proposals by the initiator, CREATE_CONNECTIONS at a time. */
async function proposeMany(agent: http.Agent, initiator: BenchSession): Promise<void> {
  const [, , create] = await buildScenarios(agent, initiator);
  if (!create?.available) throw new Error('the sandbox offers no transfer to propose');
  const run = randomBytes(4).toString('hex');
  const account = (i: number): RequestSpec => ({
    method: 'POST',
    path: paths.bankAccounts(),
    body: JSON.stringify({
      paymentMethod: 'US_ACH',
      accountName: `Bench payee ${run} ${i}`,
      accountNumber: String(100_000_000 + i),
      routingNumber: '021000021',
      bankName: 'Bench Bank',
      country: 'US',
    }),
  });
  let next = 0;
  const workers = Array.from({ length: CREATE_CONNECTIONS }, async () => {
    while (next < PENDING_ITEMS) {
      const i = (next += 1);
      await callJson(agent, initiator, i % ACCOUNT_EVERY === 0 ? account(i) : create.next(i));
    }
  });
  await Promise.all(workers);
}

export const approvalsInboxSection: BenchSection = {
  name: 'approvals-inbox',
  about: `the approvals inbox's page and count on the seeded sandbox, then with ${PENDING_ITEMS.toLocaleString('en')} more pending items`,
  async run({ requests, progress }) {
    // Each read is measured alone: a few hundred are plenty for a p99.
    const reads = Math.min(requests, 300);
    const host = new ServerHost();
    const rows: InboxRow[] = [];
    const counts: Record<string, InboxCounts> = {};
    let driver: string;
    try {
      driver = await host.prepare();
      const url = await host.start();
      progress(`server at ${url} (${driver}, seeded)`);
      const agent = keepAliveAgent(CREATE_CONNECTIONS);
      const approver = await signInAsDemo(agent, url, 'approver');
      const initiator = await signInAsDemo(agent, url, 'initiator');
      const countsNow = async () =>
        (await callJson<InboxCounts>(agent, approver, { method: 'GET', path: approvalInbox.path }))
          .body;

      counts.seeded = await countsNow();
      rows.push(...(await measureInbox(agent, approver, 'seeded', reads)));
      progress(table(['pending', 'read', 'p50 ms'], rows.map(brief)));

      progress(`proposing ${PENDING_ITEMS.toLocaleString('en')} items…`);
      const started = performance.now();
      await proposeMany(agent, initiator);
      progress(`proposed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      counts.added = await countsNow();
      const added = `+${PENDING_ITEMS.toLocaleString('en')}`;
      rows.push(...(await measureInbox(agent, approver, added, reads)));
      agent.destroy();
    } finally {
      await host.cleanup().catch((error: unknown) => progress(`cleaning up: ${String(error)}`));
      await host.terminate();
    }

    const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '—');
    const text = [
      `${driver}; items waiting: ${counts.seeded?.totalCount} seeded, ${counts.added?.totalCount} after adding`,
      table(
        ['pending', 'read', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
        rows.map((r) => [
          r.pending,
          r.read,
          String(r.requests),
          fixed(r.p50Ms),
          fixed(r.p99Ms),
          fixed(r.maxMs),
        ]),
      ),
    ].join('\n');
    return { text, data: { driver, counts, rows } };
  },
};

const brief = (r: InboxRow) => [r.pending, r.read, r.p50Ms.toFixed(2)];
