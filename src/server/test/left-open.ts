import { aroundAll, expect } from 'vitest';
import { openPgliteDatabases } from '../db/read-cache.ts';

/**
 * Set-up of every test file on a database (vitest.config.ts): a file must
 * close what it opened — databases, servers, pools, timers — by the time its
 * last hook and file fixture are done. The files of a project share one
 * worker process and its modules (`isolate: false`), so whatever one leaves
 * open the next inherits: memory that grows file by file, a second PGlite
 * that turns off the thread's write-count versions (db/read-cache.ts), a
 * timer that fires into a closed database. This fails the file that left
 * it, not the one that trips over it.
 *
 * Counted by kind against what was open before the file started
 * (`process.getActiveResourcesInfo()`: only what keeps the process alive,
 * so an unref'd timer is not counted).
 */

/** The kinds of handle a test file can leave open; the worker's own pipes and the like are not counted. */
const WATCHED = new Set(['Timeout', 'TCPServerWrap', 'TCPSocketWrap', 'MessagePort', 'Worker']);

function openNow(): Record<string, number> {
  const counts: Record<string, number> = { PGlite: openPgliteDatabases() };
  for (const kind of process.getActiveResourcesInfo())
    if (WATCHED.has(kind)) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

function leftOver(before: Record<string, number>): Record<string, number> {
  const left: Record<string, number> = {};
  for (const [kind, n] of Object.entries(openNow()))
    if (n > (before[kind] ?? 0)) left[kind] = n - (before[kind] ?? 0);
  return left;
}

/**
 * A socket whose peer closed, a worker told to end, goes on the next turns
 * of the event loop, not at once: each handle is given that long, and no
 * more, to go (a bounded wait for events that have no promise to await).
 */
async function settled(before: Record<string, number>): Promise<Record<string, number>> {
  let left = leftOver(before);
  for (let turn = 0; turn < 100 && Object.keys(left).length > 0; turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    left = leftOver(before);
  }
  return left;
}

aroundAll(async (runFile) => {
  const before = openNow();
  await runFile();
  expect(await settled(before), 'left open by this test file').toEqual({});
});
