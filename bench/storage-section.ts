import os from 'node:os';
import { measureDeepPaging } from './deep-paging.ts';
import { buildScenarios, CONNECTIONS, measureScenario, type ScenarioRow } from './latency.ts';
import { keepAliveAgent } from './load.ts';
import type { InsertPlan } from './million-rows.ts';
import {
  formatSummary,
  latencyTable,
  mb,
  type BenchSummary,
  type MemorySnapshot,
} from './report.ts';
import type { BenchSection } from './section.ts';
import { ServerHost } from './server-host.ts';
import { signInAsDemoAdmin } from './session.ts';

/**
 * The real console server (sandbox backend, seeded) in a worker thread on a
 * fresh database — a temporary PGlite directory, or a scratch database on
 * DATABASE_URL's server — measured over loopback HTTP as a signed-in admin:
 * list, get and create at 1, 10 and 50 connections, then again over --rows
 * bulk rows with deep paging.
 */

const DAY_MS = 86_400_000;

export const storageSection: BenchSection = {
  name: 'storage',
  about: 'list/get/create latency in-process, then --rows bulk rows and deep paging',
  async run({ seconds, requests, rows: ROWS, progress }) {
    const budget = { maxRequests: requests, maxDurationMs: seconds * 1000, warmupRequests: 50 };
    const started = performance.now();
    const host = new ServerHost();
    const memory: MemorySnapshot[] = [];
    const snapshot = async (at: string, server = true) => {
      const own = process.memoryUsage();
      const worker = server ? await host.memory() : undefined;
      memory.push({
        at,
        rssMb: mb(own.rss),
        serverHeapMb: worker ? mb(worker.heapUsed) : 0,
        serverExternalMb: worker ? mb(worker.external) : 0,
      });
    };

    const summary: BenchSummary = {
      startedAt: new Date().toISOString(),
      driver: 'pglite',
      node: process.version,
      cpus: os.availableParallelism(),
      loadAverage: { start: os.loadavg(), end: [] },
      budget,
      latency: [],
      unavailable: [],
      memory,
      totalSeconds: 0,
    };

    try {
      await snapshot('load generator only', false);
      summary.driver = await host.prepare();
      let url = await host.start();
      progress(`server at ${url} (${summary.driver}, seeded)`);
      await snapshot('server started, seeded');

      const agent = keepAliveAgent(4);
      let session = await signInAsDemoAdmin(agent, url);
      for (const scenario of await buildScenarios(agent, session)) {
        if (!scenario.available) {
          summary.unavailable.push({ scenario: scenario.name, reason: scenario.reason });
          progress(`${scenario.name}: ${scenario.reason}`);
          continue;
        }
        for (const connections of CONNECTIONS) {
          const row = await measureScenario(session, scenario, connections, budget);
          summary.latency.push(row);
          progress(latencyTable([row]).split('\n').at(-1) ?? '');
          if (row.firstFailure) progress(`  first non-2xx: ${row.firstFailure}`);
        }
      }
      await snapshot('after list/get/create runs');

      await host.stop();
      const plan: InsertPlan = {
        count: ROWS,
        batchSize: 100_000,
        // Older than all the seeded history (60 days), one second apart.
        newestAt: new Date(Date.now() - 90 * DAY_MS).toISOString(),
        spacingMs: 1000,
      };
      progress(`inserting ${ROWS.toLocaleString('en')} transactions…`);
      summary.insert = await host.insert(plan);
      progress(`inserted in ${(summary.insert.insertMs / 1000).toFixed(1)} s`);
      url = await host.start();
      session = await signInAsDemoAdmin(agent, url);
      await snapshot(`restarted over +${ROWS.toLocaleString('en')} rows`);

      const [list] = await buildScenarios(agent, session);
      if (list?.available) {
        const row: ScenarioRow = {
          ...(await measureScenario(session, list, 10, budget)),
          scenario: `list (+${Math.round(ROWS / 1000)}k rows)`,
        };
        summary.latency.push(row);
        progress(latencyTable([row]).split('\n').at(-1) ?? '');
      }
      summary.deepPaging = await measureDeepPaging(agent, session, plan, {
        runs: 31,
        walkPages: 50,
        depthFraction: 0.9,
      });
      await snapshot('after deep paging');
      agent.destroy();
    } finally {
      await host.cleanup().catch((error: unknown) => progress(`cleaning up: ${String(error)}`));
      await host.terminate();
    }

    summary.loadAverage.end = os.loadavg();
    summary.totalSeconds = (performance.now() - started) / 1000;
    return { text: formatSummary(summary), data: summary };
  },
};
