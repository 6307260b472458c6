import { Worker } from 'node:worker_threads';
import type { InsertPlan, InsertTiming } from './million-rows.ts';

/** The main thread's handle on bench/server-worker.ts: one command at a time, each answered once. */

export type WorkerCommand =
  | { cmd: 'prepare' }
  | { cmd: 'cleanup' }
  | { cmd: 'start' }
  | { cmd: 'stop' }
  | ({ cmd: 'insert' } & InsertPlan)
  | { cmd: 'memory' };

export type WorkerReply =
  | {
      ok: true;
      url?: string;
      driver?: 'pglite' | 'postgres';
      timing?: InsertTiming;
      memory?: NodeJS.MemoryUsage;
    }
  | { ok: false; error: string };

// Worker threads do not inherit tsx's loader: a CommonJS bootstrap registers it, then loads the .ts file.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import('tsx/esm/api').then(({ tsImport }) => tsImport(workerData.file, workerData.parent));
`;

export class ServerHost {
  private readonly worker: Worker;
  private queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: {
        file: new URL('./server-worker.ts', import.meta.url).href,
        parent: import.meta.url,
      },
    });
  }

  private send(command: WorkerCommand): Promise<Extract<WorkerReply, { ok: true }>> {
    const run = () =>
      new Promise<Extract<WorkerReply, { ok: true }>>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        this.worker.once('error', onError);
        this.worker.once('message', (reply: WorkerReply) => {
          this.worker.off('error', onError);
          if (reply.ok) resolve(reply);
          else reject(new Error(`server worker: ${reply.error}`));
        });
        this.worker.postMessage(command);
      });
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Makes the bench's database; answers which driver it is on. */
  async prepare(): Promise<'pglite' | 'postgres'> {
    const { driver } = await this.send({ cmd: 'prepare' });
    if (!driver) throw new Error('server worker prepared no database');
    return driver;
  }

  /** Stops the server if it runs and removes the bench's database. */
  async cleanup(): Promise<void> {
    await this.send({ cmd: 'cleanup' });
  }

  async start(): Promise<string> {
    const { url } = await this.send({ cmd: 'start' });
    if (!url) throw new Error('server worker started without a URL');
    return url;
  }

  async stop(): Promise<void> {
    await this.send({ cmd: 'stop' });
  }

  async insert(plan: InsertPlan): Promise<InsertTiming> {
    const { timing } = await this.send({ cmd: 'insert', ...plan });
    if (!timing) throw new Error('server worker returned no insert timing');
    return timing;
  }

  /** The server thread's heap; rss is the whole process's (both threads). */
  async memory(): Promise<NodeJS.MemoryUsage> {
    const { memory } = await this.send({ cmd: 'memory' });
    if (!memory) throw new Error('server worker returned no memory figures');
    return memory;
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
