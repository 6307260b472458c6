import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { PagePlan, PageRenderer } from '#contract/page-render.ts';
import type { FromRenderThread, RenderThreadStart, ToRenderThread } from './threaded-renderer.ts';

/**
 * The render thread (started by http/threaded-renderer.ts): the SPA's server
 * render, dist/ssr/entry-server.js, run off the request thread. Each page's
 * reads are asked of the request thread by message and answered there, in
 * process, as the visitor, exactly as an in-thread render asks them.
 */

const port = parentPort;
if (!port) throw new Error('render-thread.ts runs as a worker thread');
const { entry } = workerData as RenderThreadStart;
const send = (message: FromRenderThread) => port.postMessage(message);

/**
 * An answer as the render's API client reads one (its status, a header, its
 * text) without a Response: building one around the body and reading it back
 * through a stream cost more than the read itself.
 */
class PlainAnswer {
  readonly ok: boolean;
  readonly statusText = '';
  readonly headers: Headers;
  private readonly body: string;

  constructor(
    readonly status: number,
    headers: Array<[string, string]>,
    body: ArrayBuffer,
  ) {
    this.ok = status >= 200 && status < 300;
    this.headers = new Headers(headers);
    this.body = decoder.decode(body);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }

  json(): Promise<unknown> {
    return Promise.resolve(JSON.parse(this.body));
  }
}

const decoder = new TextDecoder();

/** Planned pages waiting to be asked for their render, by page. */
const asked = new Map<number, () => void>();

const waiting = new Map<
  number,
  { resolve(answer: PlainAnswer): void; reject(error: Error): void }
>();
let nextFetch = 1;

function fetchFor(page: number) {
  return (input: string, init: RequestInit): Promise<Response> =>
    new Promise<PlainAnswer>((resolve, reject) => {
      const fetch = nextFetch++;
      waiting.set(fetch, { resolve, reject });
      send({
        op: 'fetch',
        page,
        fetch,
        input,
        method: init.method ?? 'GET',
        headers: [...new Headers(init.headers).entries()],
        ...(typeof init.body === 'string' ? { body: init.body } : {}),
      });
    }) as Promise<unknown> as Promise<Response>;
}

async function plan(renderer: PageRenderer, page: number, href: string, builtHere: boolean) {
  let planned: PagePlan | undefined;
  try {
    planned = await renderer.planPage({
      href,
      fetch: fetchFor(page),
      answersBuiltHere: builtHere,
    });
  } catch (error) {
    send({ op: 'failed', page, message: String(error) });
    return;
  }
  if (!planned) {
    send({ op: 'planned', page });
    return;
  }
  send({ op: 'planned', page, firstScreenId: planned.firstScreenId });
  // Rendered once the request thread asks, when the page's head is on its way: begun at
  // once, the render's reads held the request thread, and the head (the browser's cue to
  // start on the document) waited behind them.
  await new Promise<void>((go) => asked.set(page, go));
  try {
    const rendered = await planned.render();
    send({ op: 'rendered', page, ...(rendered ? { rendered } : {}) });
  } catch (error) {
    send({ op: 'failed', page, message: String(error) });
  }
}

try {
  const renderer = (await import(pathToFileURL(entry).href)) as Partial<PageRenderer>;
  if (typeof renderer.planPage !== 'function') throw new Error(`${entry} has no planPage`);
  const loaded = renderer as PageRenderer;
  port.on('message', (message: ToRenderThread) => {
    if (message.op === 'plan') {
      void plan(loaded, message.page, message.href, message.answersBuiltHere);
      return;
    }
    if (message.op === 'render') {
      asked.get(message.page)?.();
      asked.delete(message.page);
      return;
    }
    const answer = waiting.get(message.fetch);
    if (!answer) return;
    waiting.delete(message.fetch);
    if ('error' in message) answer.reject(new Error(message.error));
    else answer.resolve(new PlainAnswer(message.status, message.headers, message.body));
  });
  send({ op: 'ready' });
} catch (error) {
  send({ op: 'unloadable', message: String(error) });
}
