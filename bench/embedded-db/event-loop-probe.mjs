// Preloaded into the console under the embedded-db bench (node --import): every
// 5 s, the worst delay of the main thread's event loop in that window, one JSON
// line to EVENT_LOOP_LOG. Not in worker threads, not in the first-start child.
//
// A delay is either the thread's own synchronous work or the thread waiting
// for a core (on a loaded machine the kernel's run queue holds it for 100 ms
// and more). A 20 ms tick reads the thread's scheduler counters
// (/proc/thread-self/schedstat: time run, time waiting to run) and keeps, for
// the window's longest gap between ticks, how much of it the thread ran
// (`worstGapRunMs`: its own work) and how much it waited (`worstGapWaitMs`).
import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.EVENT_LOOP_LOG;
if (file && isMainThread && !process.argv.includes('--prepare-database')) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const schedstat = () => {
    try {
      const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
      return { run: Number(run) / 1e6, wait: Number(wait) / 1e6 };
    } catch {
      return undefined;
    }
  };
  let last = { at: performance.now(), ...schedstat() };
  let worst = { gapMs: 0, runMs: 0, waitMs: 0 };
  setInterval(() => {
    const now = { at: performance.now(), ...schedstat() };
    const gapMs = now.at - last.at;
    if (gapMs > worst.gapMs)
      worst = {
        gapMs,
        runMs: (now.run ?? 0) - (last.run ?? 0),
        waitMs: (now.wait ?? 0) - (last.wait ?? 0),
      };
    last = now;
  }, 20).unref();
  setInterval(() => {
    const line = {
      at: Date.now(),
      maxMs: histogram.max / 1e6,
      p99Ms: histogram.percentile(99) / 1e6,
      worstGapMs: worst.gapMs,
      worstGapRunMs: worst.runMs,
      worstGapWaitMs: worst.waitMs,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    histogram.reset();
    worst = { gapMs: 0, runMs: 0, waitMs: 0 };
  }, 5_000).unref();
}
