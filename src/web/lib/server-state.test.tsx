import { dehydrate, QueryClient } from '@tanstack/react-query';
import { expect, it } from 'vitest';
import { readServerState, serverStateScript } from './server-state.ts';

const HOSTILE = '</script><script>alert(1)</script><!--';

function pageWith(script: string): Document {
  return new DOMParser().parseFromString(
    `<!doctype html><body><div id="root"></div>${script}</body>`,
    'text/html',
  );
}

it('carries the cache and the instant it was rendered at, and no text can end its element', () => {
  const client = new QueryClient();
  client.setQueryData(['transactions', 'detail', 'tx-1'], { memo: HOSTILE });
  const script = serverStateScript({ queries: dehydrate(client), renderedAt: 1_795_000_000_000 });
  expect(script.match(/<\/script>/g)).toHaveLength(1);
  expect(script).not.toContain('<!--');

  const state = readServerState(pageWith(script));
  expect(state?.renderedAt).toBe(1_795_000_000_000);
  expect(state?.queries.queries.map((q) => q.queryKey)).toEqual([
    ['transactions', 'detail', 'tx-1'],
  ]);
  expect(state?.queries.queries[0]?.state.data).toEqual({ memo: HOSTILE });
});

it('is none when the page holds none, or one it cannot read', () => {
  expect(readServerState(pageWith(''))).toBeUndefined();
  const broken = '<script type="application/json" id="console-server-state">{"queries":</script>';
  expect(readServerState(pageWith(broken))).toBeUndefined();
  // A state from before the instant was carried: rendered afresh rather than guessed.
  const old =
    '<script type="application/json" id="console-server-state">{"queries":[],"mutations":[]}</script>';
  expect(readServerState(pageWith(old))).toBeUndefined();
});
