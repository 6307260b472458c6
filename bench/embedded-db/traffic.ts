import type http from 'node:http';
import { keepAliveAgent, send, type Answer } from '../load.ts';
import { callJson, signInAsDemo, type BenchSession } from '../session.ts';

/**
 * What the embedded-db sections ask of a console: members signed in as the
 * sandbox's demo viewer, initiator and approver; ETH transfers between two
 * seeded vaults, created and approved (four eyes) so they move through their
 * lifecycle; and a transaction's detail read as its page polls it.
 */

export const TERMINAL = new Set(['COMPLETED', 'FAILED', 'DECLINED']);

export interface Members {
  agent: http.Agent;
  viewer: BenchSession;
  initiator: BenchSession;
  approver: BenchSession;
  /** Two vaults holding ETH on Ethereum: transfers go one way, then the other. */
  vaults: [string, string];
}

export async function signInMembers(baseUrl: string, connections: number): Promise<Members> {
  const agent = keepAliveAgent(connections);
  const viewer = await signInAsDemo(agent, baseUrl, 'viewer');
  const initiator = await signInAsDemo(agent, baseUrl, 'initiator');
  const approver = await signInAsDemo(agent, baseUrl, 'approver');
  const { body } = await callJson<{
    results: Array<{ id: string; wallets?: Array<{ blockchain: string }> }>;
  }>(agent, viewer, { method: 'GET', path: '/api/external/vaults/?limit=100' });
  const funded: string[] = [];
  for (const vault of body.results) {
    if (!vault.wallets?.some((w) => w.blockchain === 'ETHEREUM')) continue;
    const balances = await callJson<Record<string, Record<string, string>>>(agent, viewer, {
      method: 'GET',
      path: `/api/external/vaults/${vault.id}/balances/`,
    });
    if (Number(balances.body.ETH?.ETHEREUM ?? '0') >= 1) funded.push(vault.id);
    if (funded.length === 2) break;
  }
  const [a, b] = funded;
  if (!a || !b) throw new Error('the seed has no two vaults holding 1 ETH on Ethereum');
  return { agent, viewer, initiator, approver, vaults: [a, b] };
}

export interface Timed<T> {
  value: T;
  ms: number;
}

/** A small ETH transfer, created by the initiator: its id and the create's latency. */
export async function createTransfer(m: Members, n: number): Promise<Timed<string>> {
  const [from, to] = n % 2 === 0 ? m.vaults : [m.vaults[1], m.vaults[0]];
  const { body, ms } = await callJson<{ id: string }>(m.agent, m.initiator, {
    method: 'POST',
    path: '/api/external/transactions/',
    body: JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: from },
      destination: { type: 'VAULT', id: to },
      amount: '0.0001',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    }),
  });
  return { value: body.id, ms };
}

/** The approver's decision on a transaction: its two requests' latency. */
export async function approve(m: Members, transactionId: string): Promise<number> {
  const message = await callJson<{ approvalId: string }>(m.agent, m.approver, {
    method: 'GET',
    path: `/api/external/change_requests/approvals/approval_message/?entityId=${transactionId}`,
  });
  const decided = await callJson<unknown>(m.agent, m.approver, {
    method: 'POST',
    path: `/api/external/change_requests/approvals/${message.body.approvalId}/action/`,
    body: JSON.stringify({ action: 'approve' }),
  });
  return message.ms + decided.ms;
}

/** One poll of a transaction's detail, as its page sends it (If-None-Match once it has a copy). */
export async function poll(
  agent: http.Agent,
  session: BenchSession,
  transactionId: string,
  etag: string | undefined,
): Promise<Answer> {
  return send(
    agent,
    session.baseUrl,
    etag ? { ...session.headers, 'if-none-match': etag } : session.headers,
    { method: 'GET', path: `/api/external/transactions/${transactionId}/` },
  );
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarize(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    Number.NaN;
  return { count: sorted.length, p50Ms: at(50), p99Ms: at(99), maxMs: sorted.at(-1) ?? Number.NaN };
}

export interface SimulatorLag {
  due: number;
  oldestDueSeconds: number;
}

/** The simulator's lag as /readyz reports it (undefined when it does not). */
export async function readLag(baseUrl: string): Promise<SimulatorLag | undefined> {
  const res = await fetch(`${baseUrl}/readyz`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const body = (await res.json()) as { simulator?: SimulatorLag };
  return body.simulator;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
