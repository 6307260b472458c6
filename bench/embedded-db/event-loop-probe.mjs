// Preloaded into the console under the embedded-db bench (node --import): every
// 5 s, the worst delay of the main thread's event loop in that window, one JSON
// line to EVENT_LOOP_LOG. Not in worker threads, not in the first-start child.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.EVENT_LOOP_LOG;
if (file && isMainThread && !process.argv.includes('--prepare-database')) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  setInterval(() => {
    const line = {
      at: Date.now(),
      maxMs: histogram.max / 1e6,
      p99Ms: histogram.percentile(99) / 1e6,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    histogram.reset();
  }, 5_000).unref();
}
