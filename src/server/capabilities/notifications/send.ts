import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import type { SmtpSecurity } from '#contract/notifications.ts';
import { guardedLookup, isPrivateAddress, type TargetPolicy } from '../webhooks/targets.ts';

/**
 * The two ways a message leaves: an email through the admin's SMTP server
 * (nodemailer), and a POST to a team's incoming chat webhook, with the same
 * address checks as the webhooks (a private address only when
 * WEBHOOK_ALLOW_PRIVATE_TARGETS allows it). Each answers null when sent, or
 * why not, in words for the delivery log.
 */

export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
  fromAddress: string;
}

/** How long a mail server or a chat webhook has, connection to answer. */
export const SEND_TIMEOUT_MS = 10_000;

export async function sendEmail(
  server: SmtpServer,
  message: { to: string; subject: string; text: string },
  timeoutMs = SEND_TIMEOUT_MS,
): Promise<string | null> {
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.security === 'TLS',
    requireTLS: server.security === 'STARTTLS',
    ignoreTLS: server.security === 'NONE',
    ...(server.username ? { auth: { user: server.username, pass: server.password ?? '' } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail({
      from: server.fromAddress,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    return info.rejected.length > 0 ? `the server refused ${message.to}` : null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    transport.close();
  }
}

/** One POST of a JSON body to a chat webhook: no redirect followed, within the deadline. */
export function postChat(
  target: string,
  body: string,
  { targets, timeoutMs = SEND_TIMEOUT_MS }: { targets: TargetPolicy; timeoutMs?: number },
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve('the webhook URL is not valid');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!targets.allowPrivate && isIP(host) && isPrivateAddress(host))
    return Promise.resolve(`refused: ${host} is a private or reserved address`);
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(body)),
        'User-Agent': 'custody-console-notifications/1',
      },
      lookup: guardedLookup(targets),
      agent: false,
    });
    let settled = false;
    const finish = (outcome: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(outcome);
    };
    const deadline = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(`${error.code ?? 'error'}: ${error.message}`),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      response.on('end', () => finish(status >= 200 && status < 300 ? null : `answered ${status}`));
      response.on('error', (error) => finish(`the answer broke off: ${error.message}`));
    });
    request.end(body);
  });
}
