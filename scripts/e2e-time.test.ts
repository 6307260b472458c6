import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * What a browser story may spend time on. A fixed wait is paid in full on a
 * quiet machine and still too short on a loaded one: a story awaits what
 * the page shows instead. And a story runs at a phone's width as well only
 * where e2e/widths.ts says a phone can break it, since the second run
 * doubles its time.
 */
const e2e = new URL('../e2e/', import.meta.url);
const sources = () =>
  readdirSync(e2e)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => ({ name, text: readFileSync(new URL(name, e2e), 'utf8') }));

/**
 * Lines of `text` that wait a fixed time, loop a story over both widths
 * without e2e/widths.ts, or hold a file's stories to one worker, one after
 * another (a serial chain of a few minutes ran alone at the end of the run
 * while the other worker sat idle: each worker has its own world, and runs
 * one story at a time, so stories that share it need no such order).
 */
export function timeSpent(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => [
      ...(/waitForTimeout\(/.test(line) ? [`${i + 1}: waitForTimeout`] : []),
      ...(/of \[1440, 390\]/.test(line) ? [`${i + 1}: both widths`] : []),
      ...(/describe\.(configure\(\{\s*mode:\s*'(serial|default)'|serial\()/.test(line)
        ? [`${i + 1}: one after another`]
        : []),
    ]);
}

describe('browser stories spend time only where it shows something', () => {
  it('finds a fixed wait and a story looped over both widths', () => {
    expect(timeSpent('await page.waitForTimeout(500);')).toEqual(['1: waitForTimeout']);
    expect(timeSpent('x\nfor (const width of [1440, 390]) {')).toEqual(['2: both widths']);
    expect(timeSpent('for (const width of BOTH_WIDTHS) {')).toEqual([]);
    expect(timeSpent("test.describe.configure({ mode: 'default' });")).toEqual([
      '1: one after another',
    ]);
    expect(timeSpent("test.describe.serial('x', () => {")).toEqual(['1: one after another']);
    expect(timeSpent("test.describe.configure({ mode: 'parallel' });")).toEqual([]);
  });

  it('no story waits a fixed time, runs at both widths outside e2e/widths.ts or waits for another', () => {
    const found = sources().flatMap(({ name, text }) =>
      timeSpent(text).map((hit) => `e2e/${name}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('the stories at both widths are the ones e2e/widths.ts names', () => {
    const both = sources()
      .filter(({ text }) => text.includes('of BOTH_WIDTHS'))
      .map(({ name }) => name.replace(/\.spec\.ts$/, ''))
      .sort();
    const named = readFileSync(new URL('widths.ts', e2e), 'utf8');
    for (const name of both) expect(named, `${name} is named in e2e/widths.ts`).toContain(name);
    expect(both).toEqual(['approval-card', 'approval-cost', 'phone-width', 'slow-transactions']);
  });
});
