import { pathOf } from '../src/contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '../src/contract/endpoints/ledger.ts';
import { toQueryString } from '../src/contract/paths.ts';
import { createEngineTestApp } from '../src/server/test/engine-test-app.ts';
import { createVault } from '../src/server/test/fixtures.ts';
import { busyYearPeriod, insertBusyYear } from '../src/server/test/ledger-bulk.ts';
import { percentile } from './load.ts';
import type { BenchSection } from './section.ts';

/**
 * A statement's first page (50 lines) of a vault with 100,000 movements over
 * a year, the whole year asked for: the server's time, the real app in this
 * process (no socket), signed in as an admin. The first page must come in
 * 200 ms; the year's history for the chart must be at most 50 KB. On PGlite, or on PostgreSQL when DATABASE_URL is set (as
 * scripts/with-postgres.sh sets it).
 */

const DAY = 86_400_000;
const READS = 15;

export const ledgerStatementSection: BenchSection = {
  name: 'ledger-statement',
  about: `a statement's first page over 100,000 movements in a year (median of ${READS}, target 200 ms), and the year's history bytes (target 50 KB)`,
  async run({ progress }) {
    const t = await createEngineTestApp();
    try {
      const driver = process.env.DATABASE_URL ? 'postgres' : 'pglite';
      const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Busy vault' });
      const yearAgo = new Date(t.clock.now().getTime() - 365 * DAY);
      progress(`${driver}: writing 100,000 movements…`);
      const started = performance.now();
      await insertBusyYear(t.db, { orgId: t.orgId, vaultId: vault.id, yearAgo });
      const insertMs = performance.now() - started;
      const url = `${pathOf(ledgerStatement)}${toQueryString({
        vaultId: vault.id,
        ...busyYearPeriod(yearAgo),
        limit: 50,
      })}`;
      const times: number[] = [];
      for (let i = 0; i < READS + 2; i += 1) {
        const begun = performance.now();
        const res = await t.get(url);
        const ms = performance.now() - begun;
        if (res.status !== 200)
          throw new Error(`statement: ${res.status} ${JSON.stringify(res.body)}`);
        // The first two warm the code and the database's plans.
        if (i >= 2) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      // The year's history, as the chart reads it: its size on the wire (compressed as a browser
      // asks) and as JSON, and the server's time.
      const historyUrl = `${pathOf(ledgerHistory)}${toQueryString({ vaultId: vault.id, days: '365' })}`;
      const historyTimes: number[] = [];
      let wireBytes = 0;
      let encoding: string | null = null;
      for (let i = 0; i < READS + 2; i += 1) {
        const begun = performance.now();
        const res = await t.app.request(historyUrl, {
          headers: { 'accept-encoding': 'br, gzip' },
        });
        const body = await res.arrayBuffer();
        const ms = performance.now() - begun;
        if (res.status !== 200) throw new Error(`history: ${res.status}`);
        wireBytes = body.byteLength;
        encoding = res.headers.get('content-encoding');
        if (i >= 2) historyTimes.push(ms);
      }
      const historyBytes = Buffer.byteLength(JSON.stringify((await t.get(historyUrl)).body));
      historyTimes.sort((a, b) => a - b);
      const historyP50 = percentile(historyTimes, 50);
      const text = [
        `${driver}: 100,000 movements written in ${(insertMs / 1000).toFixed(1)} s`,
        `first statement page (50 lines, a whole year): median ${p50.toFixed(0)} ms, ` +
          `min ${times[0]?.toFixed(0)} ms, max ${times.at(-1)?.toFixed(0)} ms (target 200 ms)`,
        `a year's history: ${(wireBytes / 1024).toFixed(1)} KB on the wire (${encoding ?? 'identity'}; ` +
          `target 50 KB), ${(historyBytes / 1024).toFixed(1)} KB of JSON, median ${historyP50.toFixed(0)} ms`,
      ].join('\n');
      return {
        text,
        data: {
          driver,
          insertMs,
          times,
          p50Ms: p50,
          historyBytes,
          historyTimes,
          historyP50Ms: historyP50,
        },
      };
    } finally {
      await t.close();
    }
  },
};
