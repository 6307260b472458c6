import { describe, expect, it } from 'vitest';
import { TestClock } from '../test/test-clock.ts';
import { cachedProbe, PROBE_FRESH_MS } from './cached-probe.ts';

/** A probe the test settles by hand, counting its runs. */
function handProbe() {
  const runs: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  const probe = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { probe, runs };
}

describe('cachedProbe', () => {
  it('runs one probe at a time; callers meanwhile share it', async () => {
    const clock = new TestClock();
    const { probe, runs } = handProbe();
    const ready = cachedProbe(probe, clock);
    const asked = Array.from({ length: 20 }, () => ready());
    expect(runs).toHaveLength(1);
    runs[0]?.resolve();
    await Promise.all(asked);
  });

  it('answers from the outcome, ready or not, until it is 10 s old', async () => {
    const clock = new TestClock();
    const { probe, runs } = handProbe();
    const ready = cachedProbe(probe, clock);
    const first = ready();
    runs[0]?.resolve();
    await first;
    clock.advance(PROBE_FRESH_MS - 1);
    await ready();
    expect(runs).toHaveLength(1);

    clock.advance(1);
    const second = ready();
    expect(runs).toHaveLength(2);
    runs[1]?.reject(new Error('upstream down'));
    await expect(second).rejects.toThrow('upstream down');
    // Not ready is remembered as long.
    await expect(ready()).rejects.toThrow('upstream down');
    expect(runs).toHaveLength(2);
    clock.advance(PROBE_FRESH_MS);
    const third = ready();
    runs[2]?.resolve();
    await third;
    expect(runs).toHaveLength(3);
  });

  it('treats a clock set back as stale', async () => {
    const clock = new TestClock();
    const { probe, runs } = handProbe();
    const ready = cachedProbe(probe, clock);
    const first = ready();
    runs[0]?.resolve();
    await first;
    clock.advance(-60_000);
    void ready();
    expect(runs).toHaveLength(2);
    runs[1]?.resolve();
  });
});
