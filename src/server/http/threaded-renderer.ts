import { existsSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { PagePlan, PageRenderer, RenderedPage, RenderRequest } from '#contract/page-render.ts';
import { threadScript } from '../thread-script.ts';
import { renderEntryPath } from './server-render.ts';

/**
 * The server render of the SPA (http/server-render.ts) in a thread of its
 * own (http/render-thread.ts). Rendering a page is most of its cost (the
 * router's loaders, `renderToString`, the state's JSON), and on the request
 * thread it held everything else up: the page's own stylesheet, asked for as
 * soon as its head arrived, waited behind the render, and so did every other
 * request. Here the request thread only answers the page's reads (in
 * process, as the visitor, as before) and sends what the thread rendered.
 *
 * One thread, started on first use once dist/ssr is built, unreferenced (it
 * never keeps the process alive). If it dies, the pages it was rendering are
 * sent as the plain shell and the next page starts a new one; a build that
 * cannot be loaded is tried again when its file changes.
 */

export interface RenderThreadStart {
  /** dist/ssr/entry-server.js. */
  entry: string;
}

export type ToRenderThread =
  | { op: 'plan'; page: number; href: string; answersBuiltHere: boolean }
  /** The planned page's render may start: its head is on its way to the browser. */
  | { op: 'render'; page: number }
  | {
      op: 'answer';
      fetch: number;
      status: number;
      headers: Array<[string, string]>;
      /** Its bytes, moved to the thread, not copied: decoded there. */
      body: ArrayBuffer;
    }
  | { op: 'answer'; fetch: number; error: string };

export type FromRenderThread =
  | { op: 'ready' }
  | { op: 'unloadable'; message: string }
  | {
      op: 'fetch';
      page: number;
      fetch: number;
      input: string;
      method: string;
      headers: Array<[string, string]>;
      body?: string;
    }
  | { op: 'planned'; page: number; firstScreenId?: string }
  | { op: 'rendered'; page: number; rendered?: RenderedPage }
  | { op: 'failed'; page: number; message: string };

interface Settle<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function settle<T>(): Settle<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Its reader may never come (a page planned but not sent): no unhandled rejection then.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

interface Page {
  request: RenderRequest;
  planned: Settle<string | undefined>;
  rendered: Settle<RenderedPage | undefined>;
}

class RenderThread {
  private readonly pages = new Map<number, Page>();
  private nextPage = 1;
  readonly ready: Promise<boolean>;

  constructor(
    private readonly worker: Worker,
    private readonly log: Pick<Logger, 'warn'> | undefined,
    onGone: () => void,
  ) {
    this.ready = new Promise((resolve) => {
      worker.on('message', (message: FromRenderThread) => {
        if (message.op === 'ready') resolve(true);
        else if (message.op === 'unloadable') {
          log?.warn({ reason: message.message }, 'the server render could not be loaded');
          resolve(false);
        } else this.receive(message);
      });
      worker.once('exit', (code) => {
        resolve(false);
        onGone();
        const gone = new Error(`the render thread stopped (${code})`);
        for (const page of this.pages.values()) {
          page.planned.reject(gone);
          page.rendered.reject(gone);
        }
        this.pages.clear();
      });
    });
    worker.on('error', (error) => log?.warn({ err: error }, 'the render thread failed'));
  }

  private receive(message: Exclude<FromRenderThread, { op: 'ready' | 'unloadable' }>): void {
    const page = this.pages.get(message.page);
    if (message.op === 'fetch') {
      void this.answer(page, message);
      return;
    }
    if (!page) return;
    if (message.op === 'planned') {
      page.planned.resolve(message.firstScreenId);
      // Nothing is rendered for a page without a plan.
      if (message.firstScreenId === undefined) this.pages.delete(message.page);
      return;
    }
    this.pages.delete(message.page);
    if (message.op === 'rendered') {
      page.rendered.resolve(message.rendered);
      return;
    }
    const failed = new Error(message.message);
    page.planned.reject(failed);
    page.rendered.reject(failed);
  }

  /** A read the render asked for, answered in process as the page's visitor. */
  private async answer(
    page: Page | undefined,
    asked: Extract<FromRenderThread, { op: 'fetch' }>,
  ): Promise<void> {
    let reply: ToRenderThread;
    let body: ArrayBuffer | undefined;
    try {
      if (!page) throw new Error('the page is no longer being rendered');
      const answer = await page.request.fetch(asked.input, {
        method: asked.method,
        headers: asked.headers,
        ...(asked.body === undefined ? {} : { body: asked.body }),
      });
      body = await answer.arrayBuffer();
      reply = {
        op: 'answer',
        fetch: asked.fetch,
        status: answer.status,
        headers: [...answer.headers.entries()],
        body,
      };
    } catch (error) {
      reply = { op: 'answer', fetch: asked.fetch, error: String(error) };
    }
    this.worker.postMessage(reply, body ? [body] : []);
  }

  planPage(request: RenderRequest): Promise<PagePlan | undefined> {
    const id = this.nextPage++;
    const page: Page = { request, planned: settle(), rendered: settle() };
    this.pages.set(id, page);
    this.worker.postMessage({
      op: 'plan',
      page: id,
      href: request.href,
      answersBuiltHere: request.answersBuiltHere ?? false,
    } satisfies ToRenderThread);
    let asked = false;
    return page.planned.promise.then((firstScreenId) =>
      firstScreenId === undefined
        ? undefined
        : {
            firstScreenId,
            render: () => {
              if (!asked) {
                asked = true;
                this.worker.postMessage({ op: 'render', page: id } satisfies ToRenderThread);
              }
              return page.rendered.promise;
            },
          },
    );
  }

  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

export interface ThreadedRenderer {
  /** The render as `spaRoutes` takes it: undefined while there is no build to load. */
  renderer(): Promise<PageRenderer | undefined>;
  stop(): Promise<void>;
}

export function threadedRenderer(staticDir: string, log?: Pick<Logger, 'warn'>): ThreadedRenderer {
  const entry = renderEntryPath(staticDir);
  let thread: Promise<RenderThread | undefined> | undefined;
  let running: RenderThread | undefined;
  // The build's modification time when it last failed to load: not tried again until it changes.
  let unloadable: number | undefined;

  const start = async (): Promise<RenderThread | undefined> => {
    const script = threadScript('./render-thread', import.meta.url);
    const worker = new Worker(script.script, {
      eval: script.eval,
      workerData: { entry } satisfies RenderThreadStart,
    });
    worker.unref();
    const started = new RenderThread(worker, log, () => {
      if (running !== started) return;
      running = undefined;
      thread = undefined;
    });
    running = started;
    if (await started.ready) return started;
    unloadable = statSync(entry, { throwIfNoEntry: false })?.mtimeMs;
    await started.stop();
    return undefined;
  };

  return {
    async renderer() {
      if (!thread) {
        if (!existsSync(entry)) return undefined;
        if (unloadable !== undefined && statSync(entry).mtimeMs === unloadable) return undefined;
        thread = start();
      }
      const ready = await thread;
      return ready && { planPage: (request) => ready.planPage(request) };
    },
    async stop() {
      const stopping = running;
      thread = undefined;
      running = undefined;
      await stopping?.stop();
    },
  };
}
