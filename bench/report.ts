import type { DeepPagingResult } from './deep-paging.ts';
import type { ScenarioRow } from './latency.ts';
import type { InsertTiming } from './million-rows.ts';

/** The bench's printed tables and its summary block. */

export interface MemorySnapshot {
  at: string;
  /** The whole process: load generator and server thread (PGlite's WASM heap included). */
  rssMb: number;
  /** The server thread's JS heap and its external memory (ArrayBuffers, WASM). */
  serverHeapMb: number;
  serverExternalMb: number;
}

export interface BenchSummary {
  startedAt: string;
  driver: 'pglite' | 'postgres';
  node: string;
  cpus: number;
  /** os.loadavg() at the start and the end: the machine may be busy with other work. */
  loadAverage: { start: number[]; end: number[] };
  budget: { maxRequests: number; maxDurationMs: number; warmupRequests: number };
  latency: ScenarioRow[];
  unavailable: Array<{ scenario: string; reason: string }>;
  insert?: InsertTiming;
  deepPaging?: DeepPagingResult;
  memory: MemorySnapshot[];
  totalSeconds: number;
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function latencyTable(rows: ScenarioRow[]): string {
  return table(
    ['endpoint', 'conns', 'requests', 'non-2xx', 'p50 ms', 'p99 ms', 'max ms', 'req/s'],
    rows.map((r) => [
      r.scenario,
      String(r.connections),
      String(r.requests),
      String(r.non2xx),
      fixed(r.p50Ms),
      fixed(r.p99Ms),
      fixed(r.maxMs),
      fixed(r.rps, 0),
    ]),
  );
}

export function formatSummary(s: BenchSummary): string {
  const out: string[] = [
    '',
    '=== Custody Console bench summary ===',
    `driver ${s.driver} · node ${s.node} · ${s.cpus} CPUs · ${s.startedAt}`,
    `load average (1/5/15 min) at start ${s.loadAverage.start.map((n) => fixed(n)).join(' ')}, at end ${s.loadAverage.end.map((n) => fixed(n)).join(' ')}`,
    `budget per cell: ${s.budget.maxRequests} requests or ${s.budget.maxDurationMs / 1000} s, after ${s.budget.warmupRequests} warm-up requests`,
    '',
    latencyTable(s.latency),
  ];
  for (const u of s.unavailable) out.push(`${u.scenario}: ${u.reason}`);
  if (s.insert) {
    const i = s.insert;
    out.push(
      '',
      `bulk insert: ${i.rows.toLocaleString('en')} transactions in ${fixed(i.totalMs / 1000, 1)} s: ` +
        `rows ${fixed(i.insertMs / 1000, 1)} s (${i.batches} INSERT … SELECT batches, ${fixed(i.rows / (i.insertMs / 1000), 0)} rows/s), ` +
        `${i.indexes} secondary indexes rebuilt ${fixed(i.indexMs / 1000, 1)} s, ANALYZE ${fixed(i.analyzeMs / 1000, 1)} s`,
    );
  }
  if (s.deepPaging) {
    const d = s.deepPaging;
    out.push(
      '',
      table(
        ['page (limit 20)', 'median ms', 'runs'],
        [
          ['first page', fixed(d.firstPage.medianMs), String(d.firstPage.runs)],
          [
            `deep page (cursor after bench row ${d.depth.toLocaleString('en')})`,
            fixed(d.deepPageByCursor.medianMs),
            String(d.deepPageByCursor.runs),
          ],
          [
            'deep page (createdAtLte boundary)',
            fixed(d.deepPageByCreatedAtLte.medianMs),
            String(d.deepPageByCreatedAtLte.runs),
          ],
          ['walk from top (per page)', fixed(d.walkFromTop.medianMs), String(d.walkFromTop.runs)],
          [
            'walk from deep (per page)',
            fixed(d.walkFromDeep.medianMs),
            String(d.walkFromDeep.runs),
          ],
        ],
      ),
      `deep / first ratio: ${fixed(d.ratio)} (position ${d.positionVerified ? 'verified' : 'NOT verified'})`,
    );
  }
  out.push(
    '',
    table(
      ['memory', 'rss MB', 'server heap MB', 'server external MB'],
      s.memory.map((m) => [
        m.at,
        fixed(m.rssMb, 1),
        fixed(m.serverHeapMb, 1),
        fixed(m.serverExternalMb, 1),
      ]),
    ),
    '',
    `total ${fixed(s.totalSeconds, 1)} s`,
  );
  return out.join('\n');
}
