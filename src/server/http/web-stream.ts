import type { Readable } from 'node:stream';

/**
 * A web ReadableStream of a Node stream's bytes, for a Response body
 * (http/spa.ts sends a server-rendered page through one).
 *
 * Not `Readable.toWeb`: on Node 20 its adapter keeps its 'data' listener
 * after the web stream has closed, and a chunk that arrives then is enqueued
 * on the closed stream; the TypeError that throws ("Controller is already
 * closed") escapes every handler and ends the process. Rendered pages asked
 * for without compression (curl's default) by autocannon, 10 connections for
 * 3 s, ended the server in 4 runs of 4 (the compressed path never did in the
 * bench, but takes the same adapter). Here every chunk, end and error after
 * the web stream has closed or been cancelled is ignored, and a cancel (the
 * visitor left) destroys the source.
 */
export function toWebStream(source: Readable): ReadableStream<Uint8Array> {
  let open = true;
  const finish = (settle: () => void) => {
    if (!open) return;
    open = false;
    settle();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer | string) => {
          if (!open) return;
          controller.enqueue(
            typeof chunk === 'string' ? Buffer.from(chunk) : new Uint8Array(chunk),
          );
          // Backpressure: the source waits until the consumer pulls again.
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => finish(() => controller.close()));
        // on, not once: an error after the first is ignored, never left to throw.
        source.on('error', (error) => finish(() => controller.error(error)));
        source.once('close', () =>
          finish(() => controller.error(new Error('the stream closed before its end'))),
        );
        source.pause();
      },
      pull() {
        source.resume();
      },
      cancel() {
        open = false;
        source.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}
