import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageRenderer, RenderRequest } from '#contract/page-render.ts';
import { threadedRenderer } from './threaded-renderer.ts';

// A render entry of the shape the SPA's build has (one function, planPage), written for the
// test: each page says what its thread was asked and what the visitor's read answered.
const ENTRY = `
import { isMainThread } from 'node:worker_threads';
export function planPage({ href, fetch, answersBuiltHere }) {
  if (href === '/elsewhere') return undefined;
  return {
    firstScreenId: 'thing-page',
    async render() {
      if (href === '/throws') throw new Error('the render broke');
      if (href === '/dies') process.exit(3);
      if (href === '/redirects') return undefined;
      const answer = await fetch('/api/thing/?n=1', { method: 'GET', headers: { accept: 'application/json' } });
      const body = await answer.json();
      const empty = await fetch('/api/empty/', { method: 'GET' });
      return {
        html: JSON.stringify({ href, answersBuiltHere, isMainThread, status: answer.status, ok: answer.ok,
          header: answer.headers.get('x-answer'), body, empty: [empty.status, await empty.text()] }),
        stateScript: '<script type="application/json">{}</script>',
      };
    },
  };
}
`;

const work = await mkdtemp(path.join(tmpdir(), 'custody-render-thread-'));
const staticDir = path.join(work, 'web');
const entry = path.join(work, 'ssr', 'entry-server.js');
await mkdir(staticDir, { recursive: true });
await mkdir(path.dirname(entry), { recursive: true });
await writeFile(path.join(work, 'package.json'), '{ "type": "module" }\n');

const started: Array<{ stop(): Promise<void> }> = [];
afterAll(async () => {
  for (const renderer of started) await renderer.stop();
  await rm(work, { recursive: true, force: true });
});

function renderer() {
  const made = threadedRenderer(staticDir);
  started.push(made);
  return made;
}

/** The visitor's reads, answered as the request thread answers them, and remembered. */
function visitor(asked: Array<{ input: string; init: RequestInit }>): RenderRequest['fetch'] {
  return (input, init) => {
    asked.push({ input, init });
    if (input.startsWith('/api/empty/')) return new Response(null, { status: 204 });
    return Response.json({ rows: ['één', 'два'] }, { headers: { 'x-answer': 'yes' } });
  };
}

async function plan(page: PageRenderer, href: string, fetch: RenderRequest['fetch']) {
  return page.planPage({ href, fetch, answersBuiltHere: true });
}

describe('the server render in a thread of its own', () => {
  it('is not started while there is no build, and not kept when the build has no planPage', async () => {
    const pages = renderer();
    expect(await pages.renderer()).toBeUndefined();
    await writeFile(entry, 'export const nothing = 1;\n');
    expect(await pages.renderer()).toBeUndefined();
    // The same file again: not tried again until it changes.
    expect(await pages.renderer()).toBeUndefined();
    await writeFile(entry, ENTRY);
    const later = new Date(Date.now() + 5_000);
    await utimes(entry, later, later);
    expect(await pages.renderer()).toBeDefined();
  });

  it("renders off the request thread, its reads answered by the visitor's fetch", async () => {
    await writeFile(entry, ENTRY);
    const page = await renderer().renderer();
    if (!page) throw new Error('no renderer');
    const asked: Array<{ input: string; init: RequestInit }> = [];
    const planned = await plan(page, '/things?x=1', visitor(asked));
    expect(planned?.firstScreenId).toBe('thing-page');
    // Not rendered until asked (the server sends the page's head first): a read begun at the
    // plan would have reached the request thread before the plan of a page asked for after it.
    await plan(page, '/elsewhere', visitor([]));
    expect(asked).toEqual([]);
    const rendered = await planned?.render();
    expect(JSON.parse(rendered?.html ?? '{}')).toEqual({
      href: '/things?x=1',
      answersBuiltHere: true,
      isMainThread: false,
      status: 200,
      ok: true,
      header: 'yes',
      body: { rows: ['één', 'два'] },
      empty: [204, ''],
    });
    expect(rendered?.stateScript).toBe('<script type="application/json">{}</script>');
    expect(asked.map((a) => [a.input, a.init.method])).toEqual([
      ['/api/thing/?n=1', 'GET'],
      ['/api/empty/', 'GET'],
    ]);
    expect(new Headers(asked[0]?.init.headers).get('accept')).toBe('application/json');
  });

  it('answers no plan for a page it does not render, and no page for a render that gives none', async () => {
    await writeFile(entry, ENTRY);
    const page = await renderer().renderer();
    if (!page) throw new Error('no renderer');
    expect(await plan(page, '/elsewhere', visitor([]))).toBeUndefined();
    const planned = await plan(page, '/redirects', visitor([]));
    expect(await planned?.render()).toBeUndefined();
  });

  it('fails a render that throws, and one whose thread dies, then starts a new thread', async () => {
    await writeFile(entry, ENTRY);
    const pages = renderer();
    const page = await pages.renderer();
    if (!page) throw new Error('no renderer');
    const throws = await plan(page, '/throws', visitor([]));
    await expect(throws?.render()).rejects.toThrow('the render broke');
    // Pages under way when the thread dies fail; none is left waiting.
    const dies = await plan(page, '/dies', visitor([]));
    const beside = plan(page, '/things', () => new Promise<Response>(() => {}));
    await expect(dies?.render()).rejects.toThrow('the render thread stopped');
    await expect(beside.then((p) => p?.render())).rejects.toThrow('the render thread stopped');
    const again = await pages.renderer();
    if (!again) throw new Error('no renderer after the thread died');
    const planned = await plan(again, '/things', visitor([]));
    expect(JSON.parse((await planned?.render())?.html ?? '{}')).toMatchObject({ status: 200 });
  });
});
