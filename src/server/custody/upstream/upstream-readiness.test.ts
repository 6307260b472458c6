import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { PROBE_FRESH_MS } from '../../http/cached-probe.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Upstream mode's /readyz makes a signed read of the custody API (B here).
// Anonymous callers must not be able to spend the API user's rate limit with
// it: one probe at a time, its outcome reused for 10 s.
let probes = 0;
const upstreamTest = twoConsolesTest({}, async (t) => {
  t.intercept = (send, input, init) => {
    if (String(input).endsWith(paths.supportedChains())) probes += 1;
    return send(input, init);
  };
});

describe('/readyz in upstream mode', () => {
  upstreamTest(
    'makes one upstream call for a burst of anonymous callers, and one per 10 s after',
    async ({ t }) => {
      const burst = await Promise.all(Array.from({ length: 50 }, () => t.a.request('/readyz')));
      expect(burst.map((r) => r.status)).toEqual(Array(50).fill(200));
      expect(probes).toBe(1);

      for (let i = 0; i < 20; i += 1) expect((await t.a.request('/readyz')).status).toBe(200);
      expect(probes).toBe(1);

      t.clock.advance(PROBE_FRESH_MS);
      expect((await t.a.request('/readyz')).status).toBe(200);
      expect(probes).toBe(2);
    },
  );
});
