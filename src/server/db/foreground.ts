/**
 * The server-rendered pages in progress, counted in memory the embedded
 * database's thread reads too (a SharedArrayBuffer), so the sandbox's
 * lifecycle simulator there can let them go first.
 *
 * PGlite has one connection: while a simulator batch holds it, every other
 * statement waits, a page's reads included. Alone a batch takes a few
 * milliseconds; while a browser starts the page's renderer on the same
 * cores it took 100–260 ms, and a `/transactions` page's one read of its
 * rows (2–6 ms alone) waited behind it for up to 200 ms. Nothing is late for
 * a simulated chain if a step waits a moment, so a batch waits, before it
 * begins, for the pages in progress to be sent (`quiet`), for a bounded time
 * so a steady stream of pages cannot stop the simulator.
 */
export class ForegroundPages {
  private readonly count: Int32Array;

  constructor(readonly buffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.count = new Int32Array(buffer);
  }

  /** Counts one page in progress until the function returned is called (the first call counts). */
  hold(): () => void {
    Atomics.add(this.count, 0, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      Atomics.sub(this.count, 0, 1);
      Atomics.notify(this.count, 0);
    };
  }

  /** How many pages are in progress. */
  inProgress(): number {
    return Atomics.load(this.count, 0);
  }

  /** Resolves once no page is in progress, or after `maxMs` whatever is. */
  async quiet(maxMs: number): Promise<void> {
    const until = performance.now() + maxMs;
    for (;;) {
      const held = Atomics.load(this.count, 0);
      const left = until - performance.now();
      if (held === 0 || left <= 0) return;
      const wait = waitAsync(this.count, 0, held, left);
      if (wait.async) await wait.value;
    }
  }
}

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

// ES2024's Atomics.waitAsync (in every supported Node), not yet in the ES2023 lib the project types against.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
