import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the test's SMTP server received it: its envelope, headers and decoded text. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  raw: string;
  /** When its data ended (performance.now()). */
  at: number;
}

/** The body's quoted-printable soft breaks and escapes undone (nodemailer writes long lines so). */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function parse(raw: string, to: string[], from: string): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).trim();
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^subject:\s*(.*)$/im.exec(unfolded)?.[1]?.trim() ?? '';
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(unfolded);
  return {
    to,
    from,
    subject,
    text: qp ? decodeQuotedPrintable(body) : body,
    raw,
    at: performance.now(),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server), plain, any sender and
 * recipient, every message kept; `refuse` makes it answer each message with
 * a 451 (a temporary failure) until set back.
 */
export async function startSmtpServer() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    // A plain connection, as a server on the test's own machine: the console's login is taken
    // as given (the test's proof is what arrives, not the server's password check).
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (state.refuse) {
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          return;
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
            from,
          ),
        );
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    mails,
    state,
    /** Resolves once `count` messages have arrived in all. */
    async received(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${mails.length} of ${count} messages arrived`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A local HTTP receiver for chat webhooks: every POST's JSON body kept, answered `status`. */
export async function startChatReceiver() {
  const bodies: unknown[] = [];
  /** Each body with when it ended (performance.now()), for timing what arrives. */
  const arrivals: Array<{ body: unknown; at: number }> = [];
  const state = { status: 200 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      bodies.push(body);
      arrivals.push({ body, at: performance.now() });
      res.writeHead(state.status, { 'Content-Type': 'text/plain' });
      res.end(state.status === 200 ? 'ok' : 'no');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/team`,
    bodies,
    arrivals,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
