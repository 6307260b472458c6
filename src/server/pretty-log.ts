/**
 * Log lines for a person at a terminal: `09:32:20.943 INFO  request method=GET
 * path=/healthz status=200 ms=20`, an error's stack indented below. Only
 * used when standard output is a terminal (see createLogger); everywhere
 * else, one JSON object a line for machines. It formats what pino already
 * wrote (and redacted), so it can never show more than the JSON would.
 */

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const OMIT = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s="]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

export function formatLogLine(line: string, colour: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof record.level === 'number' ? record.level : 30;
  const time = typeof record.time === 'string' ? record.time.slice(11, 23) : '';
  const label = LEVELS[level] ?? String(level);
  const paint = (s: string, c: string | undefined) => (colour && c ? `${c}${s}${RESET}` : s);
  let stack = '';
  const fields: string[] = [];
  for (const [k, v] of Object.entries(record)) {
    if (OMIT.has(k)) continue;
    if (k === 'err' && v && typeof v === 'object' && 'stack' in v && typeof v.stack === 'string') {
      stack = `\n${v.stack.replace(/^/gm, '    ')}`;
      continue;
    }
    fields.push(`${k}=${value(v)}`);
  }
  const rest = fields.length ? ` ${paint(fields.join(' '), DIM)}` : '';
  return `${paint(time, DIM)} ${paint(label, COLOURS[level])} ${String(record.msg ?? '')}${rest}${stack}\n`;
}

/** A pino destination that writes readable lines to `out`. */
export function prettyDestination(out: NodeJS.WriteStream): { write(line: string): void } {
  const colour = out.hasColors?.() ?? false;
  return { write: (line) => void out.write(formatLogLine(line, colour)) };
}
