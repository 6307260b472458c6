import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ForegroundPages } from './foreground.ts';

describe('ForegroundPages', () => {
  it('is quiet at once when no page is in progress', async () => {
    const pages = new ForegroundPages();
    let done = false;
    const quiet = pages.quiet(60_000).then(() => (done = true));
    await Promise.resolve();
    await quiet;
    expect(done).toBe(true);
    expect(pages.inProgress()).toBe(0);
  });

  it('waits for every page in progress to be released, each counted once', async () => {
    const pages = new ForegroundPages();
    const first = pages.hold();
    const second = pages.hold();
    expect(pages.inProgress()).toBe(2);
    let done = false;
    const quiet = pages.quiet(60_000).then(() => (done = true));
    first();
    first();
    expect(pages.inProgress()).toBe(1);
    // A turn for the waiter to see the count fall to one: still not quiet.
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    second();
    await quiet;
    expect(pages.inProgress()).toBe(0);
  });

  it('stops waiting after its bound while a page is still in progress', async () => {
    const pages = new ForegroundPages();
    pages.hold();
    const from = performance.now();
    await pages.quiet(30);
    expect(performance.now() - from).toBeGreaterThanOrEqual(29);
    expect(pages.inProgress()).toBe(1);
  });

  it('is read and waited on from another thread through its buffer', async () => {
    const pages = new ForegroundPages();
    const release = pages.hold();
    // The worker waits on the same buffer as the database thread does, and says when it is quiet.
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const count = new Int32Array(workerData);
       parentPort.postMessage({ seen: Atomics.load(count, 0) });
       Atomics.wait(count, 0, 1, 60000);
       parentPort.postMessage({ seen: Atomics.load(count, 0) });`,
      { eval: true, workerData: pages.buffer },
    );
    const seen: number[] = [];
    const quiet = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: { seen: number }) => {
        seen.push(message.seen);
        if (seen.length === 1) release();
        if (seen.length === 2) resolve();
      });
      worker.on('error', reject);
    });
    await quiet;
    await worker.terminate();
    expect(seen).toEqual([1, 0]);
  });
});
