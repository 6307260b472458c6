import { Writable } from 'node:stream';

/**
 * A log kept in memory, for a test that reads what the app logged: hand
 * `stream` to the logger (`pino({ level }, stream)` or `createLogger`), then
 * read `text()`, or `lines()` parsed one JSON object a line.
 */
export function capturedLog() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
