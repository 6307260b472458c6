import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_VERSION, type SignatureEncoding } from '#contract/webhooks.ts';
import { canonicalJson, signatureOf } from '../signing.ts';
import { guardedLookup, isPrivateAddress, type TargetPolicy } from '../targets.ts';

/**
 * One webhook sent: the signed request and its POST. The dispatcher sends
 * the outbox's deliveries through it (dispatcher.ts), and "Send a test
 * event" one test event (index.ts), so a test proves what a real delivery
 * would do: the same signature, the same address checks, the same deadline.
 */

/** The most of an endpoint's answer kept for its log. */
const ANSWER_EXCERPT = 200;

export interface Outcome {
  statusCode: number | null;
  latencyMs: number;
  /** Null when the endpoint answered 2xx: delivered. */
  error: string | null;
}

/** The body as sent (the signed text itself) and its headers, signed at `at`. */
export function signedWebhook(
  event: {
    key: string;
    encoding: SignatureEncoding;
    eventId: string;
    event: string;
    data: Record<string, unknown>;
  },
  at: Date,
): { body: string; headers: Record<string, string> } {
  const body = canonicalJson(
    { event: event.event, version: WEBHOOK_VERSION, eventId: event.eventId, data: event.data },
    event.encoding,
  );
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'custody-console-sandbox-webhooks/1',
      'X-Signature': signatureOf(event.key, body, timestamp),
      'X-Timestamp': String(timestamp),
    },
  };
}

/** One attempt's HTTP POST: never a redirect, only allowed addresses, within the deadline. */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  { targets, timeoutMs }: { targets: TargetPolicy; timeoutMs: number },
): Promise<Outcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): Outcome => ({
    statusCode,
    latencyMs: performance.now() - started,
    error,
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(done(null, 'the endpoint URL is not valid'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A literal address is connected to without a lookup: checked here instead.
  if (!targets.allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.resolve(done(null, `refused: ${host} is a private or reserved address`));
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: guardedLookup(targets),
      agent: false,
    });
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(outcome);
    };
    const deadline = setTimeout(
      () => finish(done(null, `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        done(
          null,
          error.code === 'WEBHOOK_TARGET_REFUSED'
            ? `refused: ${error.message}`
            : `${error.code ?? 'error'}: ${error.message}`,
        ),
      ),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      let excerpt = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (excerpt.length < ANSWER_EXCERPT) excerpt += chunk;
      });
      response.on('error', (error) =>
        finish(done(status, `the answer broke off: ${error.message}`)),
      );
      response.on('end', () => {
        if (status >= 200 && status < 300) return finish(done(status, null));
        const said = excerpt.replace(/\s+/g, ' ').trim().slice(0, ANSWER_EXCERPT);
        const why =
          status >= 300 && status < 400
            ? `answered ${status}, a redirect: redirects are not followed`
            : `answered ${status}`;
        finish(done(status, said ? `${why}: ${said}` : why));
      });
    });
    request.end(body);
  });
}
