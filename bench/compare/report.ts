import { table } from '../report.ts';
import type { ColdLoad } from './cold-load.ts';
import { median } from '../load.ts';
import type { CannonRow } from './load.ts';

/** The comparison's printed tables and the ratios the console's targets are stated in. */

/** One round of the logging comparison: the same cell with request logs on (info) and off (warn). */
export interface LoggingRound {
  round: number;
  path: string;
  on: CannonRow;
  off: CannonRow;
}

export interface CompareResult {
  seconds: number;
  coldLoads: ColdLoad[];
  load: CannonRow[];
  logging: LoggingRound[];
  rssMb: Record<string, number>;
  wholeAppGzipKb?: number;
  unavailable: string[];
}

/** json-server's cells measured between the PostgreSQL console's, their baseline. */
export const JSON_BESIDE_POSTGRES = 'json-server 0.17, beside PostgreSQL';

const TARGETS = {
  loadVsStatic: 2,
  firstLoadGzipKb: 150,
  wholeAppGzipKb: 350,
  /** At 50 connections: at least this many times json-server's answers a second, at this p99. */
  ratioAt50: 3,
  p99At50Ms: 20,
  loggingShare: 0.8,
  rssMb: 350,
};

const f = (n: number | undefined, digits = 0) =>
  n === undefined || !Number.isFinite(n) ? '—' : n.toFixed(digits);
const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

function find(rows: CannonRow[], target: string, conns: number, pathStart: string, round?: number) {
  return rows.find(
    (r) =>
      r.target === target &&
      r.connections === conns &&
      r.path.startsWith(pathStart) &&
      r.round === round,
  );
}

export function formatCompare(r: CompareResult): string {
  const out: string[] = [];
  const staticLoad = r.coldLoads[0];
  // The list-only section measures no cold load.
  if (r.coldLoads.length > 0)
    out.push(
      'Cold loads in headless Chromium (navigation start → 20 rows in the DOM), the pages taking turns',
      table(
        [
          'page',
          'runs',
          'median ms',
          'min',
          'max',
          'vs static',
          'HTML 1st / last byte ms',
          'requests',
          'wire KB',
          'JS+CSS gzip KB',
        ],
        r.coldLoads.map((l) => [
          l.page,
          String(l.runs),
          f(l.medianMs),
          f(l.minMs),
          f(l.maxMs),
          staticLoad ? `${f(l.medianMs / staticLoad.medianMs, 1)}×` : '—',
          `${f(l.htmlFirstByteMs)} / ${f(l.htmlCompleteMs)}`,
          String(l.requests),
          f(l.transferKb, 1),
          f(l.jsCssGzipKb, 1),
        ]),
      ),
      '',
    );
  out.push(
    `Throughput (autocannon, ${r.seconds} s a cell after a 1 s warm-up; failures = non-2xx, errors, timeouts;` +
      " CPU ms/req = the server process's CPU time per answer, which the machine's load moves least)",
  );
  // json-server's cell of the same round: the two took turns.
  const base = (conns: number, target?: string, round?: number) =>
    (target === 'console PostgreSQL'
      ? find(r.load, JSON_BESIDE_POSTGRES, conns, '/transactions', round)
      : undefined) ?? find(r.load, 'json-server 0.17', conns, '/transactions', round);
  out.push(
    table(
      [
        'server',
        'path',
        'conns',
        'round',
        'req/s',
        'vs json-server',
        'p50 ms',
        'p99 ms',
        'max ms',
        'failures',
        'CPU ms/req',
      ],
      r.load.map((row) => {
        const json = base(row.connections, row.target, row.round);
        return [
          row.target,
          row.path,
          String(row.connections),
          row.round === undefined ? '' : String(row.round),
          f(row.rps),
          json ? `${f(row.rps / json.rps, 2)}×` : '—',
          f(row.p50Ms),
          f(row.p99Ms),
          f(row.maxMs),
          String(row.failures),
          f(row.cpuMsPerRequest, 2),
        ];
      }),
    ),
  );
  if (r.logging.length > 0)
    out.push(
      '',
      `Request logging (50 connections, ${r.seconds} s a cell; info and warn servers up together, taking turns)`,
      table(
        [
          'round',
          'path',
          'info req/s',
          'warn req/s',
          'info p99 ms',
          'warn p99 ms',
          'info CPU ms/req',
          'warn CPU ms/req',
        ],
        r.logging.map((l) => [
          String(l.round),
          l.path,
          f(l.on.rps),
          f(l.off.rps),
          f(l.on.p99Ms),
          f(l.off.p99Ms),
          f(l.on.cpuMsPerRequest, 3),
          f(l.off.cpuMsPerRequest, 3),
        ]),
      ),
    );
  for (const u of r.unavailable) out.push(`not measured: ${u}`);
  out.push(
    '',
    table(
      ['resident memory', 'RSS MB'],
      Object.entries(r.rssMb).map(([k, v]) => [k, f(v, 1)]),
    ),
  );

  // The console's targets against the baselines, each with its figure.
  const lines: string[] = [];
  const consoleLoad = r.coldLoads.find((l) => l.page.startsWith('console /transactions'));
  if (staticLoad && consoleLoad) {
    const ratio = consoleLoad.medianMs / staticLoad.medianMs;
    lines.push(
      `load vs static page: ${f(ratio, 1)}× (target ≤ ${TARGETS.loadVsStatic}×) ${mark(ratio <= TARGETS.loadVsStatic)}`,
    );
    lines.push(
      `first load JS+CSS: ${f(consoleLoad.jsCssGzipKb, 1)} KB gzip (target ≤ ${TARGETS.firstLoadGzipKb}) ${mark(consoleLoad.jsCssGzipKb <= TARGETS.firstLoadGzipKb)}`,
    );
  }
  if (r.wholeAppGzipKb !== undefined)
    lines.push(
      `whole app JS+CSS: ${f(r.wholeAppGzipKb, 1)} KB gzip (target ≤ ${TARGETS.wholeAppGzipKb}) ${mark(r.wholeAppGzipKb <= TARGETS.wholeAppGzipKb)}`,
    );
  // The list cells ran in rounds, each beside json-server's (compare-section.ts,
  // LOAD_ROUNDS): the ratio and the p99 are the medians of the rounds.
  for (const target of ['console PGlite', 'console PostgreSQL']) {
    for (const conns of [10, 50]) {
      const rounds = r.load
        .filter((row) => row.target === target && row.connections === conns)
        .filter((row) => row.path.startsWith('/api'))
        .map((row) => ({ row, json: base(conns, target, row.round) }))
        .filter((x): x is { row: CannonRow; json: CannonRow } => x.json !== undefined);
      if (rounds.length === 0) continue;
      const ratios = rounds.map((x) => x.row.rps / x.json.rps);
      const p99s = rounds.map((x) => x.row.p99Ms);
      const ratio = median(ratios);
      const p99 = median(p99s);
      const ok =
        ratio >= (conns === 50 ? TARGETS.ratioAt50 : 1) &&
        rounds.every((x) => x.row.failures === 0) &&
        (conns !== 50 || p99 <= TARGETS.p99At50Ms);
      const each =
        rounds.length > 1
          ? ` [rounds: ${ratios.map((x) => `${f(x, 2)}×`).join(', ')}; p99 ${p99s.map((x) => f(x)).join(', ')} ms]`
          : '';
      lines.push(
        `${target} list ×${conns}: ${f(ratio, 2)}× json-server's req/s, p99 ${f(p99)} ms` +
          `${conns === 50 ? ` (target ≥ ${TARGETS.ratioAt50}× and p99 ≤ ${TARGETS.p99At50Ms} ms)` : ' (target ≥ 1×)'} ${mark(ok)}${each}`,
      );
    }
  }
  // /healthz pings the database on every answer; the list page is the ceiling that matters.
  // Two readings of one ceiling: req/s (medians of the rounds), and CPU per answer, which
  // bounds a one-thread server's req/s and which the machine's other load moves least.
  for (const [label, path] of [
    ['/healthz', '/healthz'],
    ['list page', '/api'],
  ] as const) {
    const rounds = r.logging.filter((l) => l.path.startsWith(path));
    if (rounds.length === 0) continue;
    const on = median(rounds.map((l) => l.on.rps));
    const off = median(rounds.map((l) => l.off.rps));
    const cpuOn = median(rounds.map((l) => l.on.cpuMsPerRequest ?? Number.NaN));
    const cpuOff = median(rounds.map((l) => l.off.cpuMsPerRequest ?? Number.NaN));
    const share = on / off;
    const cpuShare = cpuOff / cpuOn;
    lines.push(
      `${label} ceiling with request logs (info) vs without (warn), ${rounds.length} rounds: ` +
        `${f(on)} / ${f(off)} req/s = ${f(share * 100)}%, CPU ${f(cpuOn, 3)} / ${f(cpuOff, 3)} ms an answer = ${f(cpuShare * 100)}%` +
        ` (target ≥ ${TARGETS.loggingShare * 100}%) ${mark(share >= TARGETS.loggingShare)} by req/s, ${mark(cpuShare >= TARGETS.loggingShare)} by CPU`,
    );
  }
  for (const [name, rss] of Object.entries(r.rssMb).filter(([k]) => k.startsWith('console')))
    lines.push(
      `RSS ${name}: ${f(rss)} MB (target ≤ ${TARGETS.rssMb}) ${mark(rss <= TARGETS.rssMb)}`,
    );
  out.push('', 'Targets', ...lines.map((l) => `  ${l}`));
  return out.join('\n');
}
