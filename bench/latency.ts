import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { chainInfo } from '../src/contract/chains.ts';
import { paths } from '../src/contract/paths.ts';
import { runLoad, type LoadResult, type RequestSpec } from './load.ts';
import { callJson, type BenchSession } from './session.ts';

/**
 * Latency and throughput of the three calls the console makes most: list
 * (first page of 20), get (one transaction) and create (a vault-to-vault
 * transfer with its own externalId), at 1, 10 and 50 connections.
 */

export const CONNECTIONS = [1, 10, 50] as const;

export interface Budget {
  maxRequests: number;
  maxDurationMs: number;
  warmupRequests: number;
}

export interface ScenarioRow extends LoadResult {
  scenario: string;
}

export type Scenario =
  | { name: string; available: true; next: (i: number) => RequestSpec }
  | { name: string; available: false; reason: string };

interface VaultRow {
  id: string;
  vaultName?: string;
  wallets?: Array<{ blockchain?: string }>;
}

/** A transfer between two seeded vaults on a chain both hold, or why there is none. */
async function transferTemplate(agent: http.Agent, session: BenchSession) {
  const { body } = await callJson<{ results: VaultRow[] }>(agent, session, {
    method: 'GET',
    path: `${paths.vaults()}?limit=100`,
  });
  const chainsOf = (v: VaultRow) => new Set((v.wallets ?? []).map((w) => w.blockchain ?? ''));
  for (const source of body.results) {
    for (const destination of body.results) {
      if (source.id === destination.id) continue;
      const shared = [...chainsOf(source)].find(
        (chain) => chainsOf(destination).has(chain) && chainInfo(chain),
      );
      const chain = chainInfo(shared);
      if (chain) {
        return {
          category: 'TRANSFER',
          source: { type: 'VAULT', id: source.id },
          destination: { type: 'VAULT', id: destination.id },
          amount: '0.0001',
          asset: chain.nativeAsset,
          blockChain: chain.value,
        };
      }
    }
  }
  return undefined;
}

/** Probes create once; a route not there yet (404/405) makes the scenario unavailable. */
export async function buildScenarios(
  agent: http.Agent,
  session: BenchSession,
): Promise<Scenario[]> {
  const { body: page } = await callJson<{ results: Array<{ id: string }> }>(agent, session, {
    method: 'GET',
    path: `${paths.transactions()}?limit=20`,
  });
  const ids = page.results.map((r) => r.id);
  if (ids.length === 0) throw new Error('the seeded sandbox lists no transactions');

  const scenarios: Scenario[] = [
    {
      name: 'list',
      available: true,
      next: () => ({ method: 'GET', path: `${paths.transactions()}?limit=20` }),
    },
    {
      name: 'get',
      available: true,
      next: (i) => ({ method: 'GET', path: paths.transaction(ids[i % ids.length] ?? '') }),
    },
  ];

  const template = await transferTemplate(agent, session);
  if (!template) {
    scenarios.push({ name: 'create', available: false, reason: 'no two vaults share a chain' });
    return scenarios;
  }
  // Its own counter: every load run starts its request numbers at 0 again.
  const run = randomBytes(4).toString('hex');
  let sequence = 0;
  const create = (): RequestSpec => ({
    method: 'POST',
    path: paths.transactions(),
    body: JSON.stringify({ ...template, externalId: `bench-${run}-${(sequence += 1)}` }),
  });
  const probe = await callJson(agent, session, create()).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  if (probe === undefined) scenarios.push({ name: 'create', available: true, next: create });
  else if (/: (404|405) /.test(probe))
    scenarios.push({ name: 'create', available: false, reason: 'endpoint not available' });
  else throw new Error(`create probe failed: ${probe}`);
  return scenarios;
}

export async function measureScenario(
  session: BenchSession,
  scenario: Extract<Scenario, { available: true }>,
  connections: number,
  budget: Budget,
): Promise<ScenarioRow> {
  const result = await runLoad({
    baseUrl: session.baseUrl,
    headers: session.headers,
    connections,
    ...budget,
    next: scenario.next,
  });
  return { scenario: scenario.name, ...result };
}
