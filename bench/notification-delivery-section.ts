import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { startChatReceiver, startSmtpServer } from '../src/server/test/smtp.ts';
import { startConsole } from './compare/processes.ts';
import { createTransfer, signInMembers, sleep, summarize } from './embedded-db/traffic.ts';
import type { BenchSection } from './section.ts';
import { callJson, signInAsDemoAdmin } from './session.ts';

/**
 * "Needs your approval" from the create call to the message's arrival (one
 * built console, PGlite, its own notifier as it runs in production; a real
 * SMTP server and a team chat receiver on 127.0.0.1 in this process):
 * TRANSFERS transfers needing an approval, RATE a second; for each, every
 * eligible approver's email (who may decide it, read from the item's
 * approval progress) and the team webhook's post, each timed from the start
 * of its create call. Target: every message within 5 s.
 *
 * NOTIFY_BENCH_TRANSFERS and NOTIFY_BENCH_RATE change the run's size.
 */

const TRANSFERS = Number(process.env.NOTIFY_BENCH_TRANSFERS ?? 40);
const RATE = Number(process.env.NOTIFY_BENCH_RATE ?? 4);
/** How long the run waits for every message before it reports what is missing. */
const ARRIVAL_LIMIT_MS = 120_000;
const TARGET_MS = 5_000;

const subjectOf = (id: string) => `Transaction ${id} needs your approval`;

export const notificationDeliverySection: BenchSection = {
  name: 'notification-delivery',
  about: `"needs your approval" from the create call to each eligible approver's email and the team webhook (${TRANSFERS} transfers at ${RATE}/s), p50/p99`,
  async run(options) {
    if (options.build) {
      options.progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const work = await mkdtemp(path.join(tmpdir(), 'bench-notify-'));
    await mkdir(path.join(work, 'no-spa'));
    const server = await startConsole({
      dataDir: path.join(work, 'data'),
      logLevel: 'warn',
      staticDir: path.join(work, 'no-spa'),
      logFile: path.join(work, 'console.log'),
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' },
    }).catch(async (error: unknown) => {
      await rm(work, { recursive: true, force: true });
      throw error;
    });
    const [smtp, chat] = await Promise.all([startSmtpServer(), startChatReceiver()]);
    try {
      const members = await signInMembers(server.url, 8);
      const admin = await signInAsDemoAdmin(members.agent, server.url);
      await callJson(members.agent, admin, {
        method: 'PUT',
        path: '/api/console/notifications/smtp/',
        body: JSON.stringify({
          host: '127.0.0.1',
          port: smtp.port,
          security: 'NONE',
          fromAddress: 'console@bench.test',
          enabled: true,
        }),
      });
      await callJson(members.agent, admin, {
        method: 'POST',
        path: '/api/console/notifications/chat/',
        body: JSON.stringify({ subOrgId: null, url: chat.url, format: 'SLACK' }),
      });
      const staff = await callJson<{ results: Array<{ id: string; email: string }> }>(
        members.agent,
        admin,
        { method: 'GET', path: '/api/console/staff/?limit=100' },
      );
      const emailOf = new Map(staff.body.results.map((s) => [s.id, s.email]));

      options.progress(`${TRANSFERS} transfers at ${RATE}/s, each waiting for approval…`);
      const startedAt = new Map<string, number>();
      const answeredAt = new Map<string, number>();
      const made: Array<Promise<void>> = [];
      const first = performance.now();
      for (let n = 0; n < TRANSFERS; n += 1) {
        const due = first + (n * 1000) / RATE;
        if (due > performance.now()) await sleep(due - performance.now());
        const at = performance.now();
        made.push(
          createTransfer(members, n).then(({ value }) => {
            startedAt.set(value, at);
            answeredAt.set(value, performance.now());
          }),
        );
      }
      await Promise.all(made);
      const ids = [...startedAt.keys()];

      // Who each may be decided by: the eligible approvers the item's page lists.
      const expected = new Map<string, Set<string>>();
      for (let i = 0; i < ids.length; i += 20) {
        const batch = ids.slice(i, i + 20);
        const progress = await callJson<{
          results: Array<{ entityId: string; stillEligible: Array<{ id: string }> }>;
        }>(members.agent, admin, {
          method: 'GET',
          path: `/api/console/approval_progress/?entityIds=${batch.join(',')}`,
        });
        for (const item of progress.body.results)
          expected.set(
            item.entityId,
            new Set(item.stillEligible.flatMap((m) => emailOf.get(m.id) ?? [])),
          );
      }
      const emailsExpected = [...expected.values()].reduce((n, s) => n + s.size, 0);
      const subjects = new Map(ids.map((id) => [subjectOf(id), id]));
      const chatOf = (body: unknown) => {
        const text = (body as { text?: string }).text ?? '';
        return ids.find((id) => text.includes(subjectOf(id)));
      };
      const arrived = () => ({
        emails: smtp.mails.filter((m) => subjects.has(m.subject)),
        chats: chat.arrivals.filter((a) => chatOf(a.body)),
      });
      const deadline = Date.now() + ARRIVAL_LIMIT_MS;
      for (
        let now = arrived();
        (now.emails.length < emailsExpected || now.chats.length < ids.length) &&
        Date.now() < deadline;
        now = arrived()
      )
        await sleep(100);

      const { emails, chats } = arrived();
      const emailLatency: number[] = [];
      let wrongRecipients = 0;
      for (const mail of emails) {
        const id = subjects.get(mail.subject) ?? '';
        for (const to of mail.to) {
          if (!expected.get(id)?.has(to)) wrongRecipients += 1;
          emailLatency.push(mail.at - (startedAt.get(id) ?? mail.at));
        }
      }
      const create = summarize(
        ids.map((id) => (answeredAt.get(id) ?? 0) - (startedAt.get(id) ?? 0)),
      );
      const afterAnswer = summarize(
        emails.map((m) => m.at - (answeredAt.get(subjects.get(m.subject) ?? '') ?? m.at)),
      );
      const chatLatency = chats.map((a) => a.at - (startedAt.get(chatOf(a.body) ?? '') ?? a.at));
      const email = summarize(emailLatency);
      const team = summarize(chatLatency);
      const load = os.loadavg();
      const eligible = [...expected.values()].map((s) => s.size);
      const f = (n: number) => n.toFixed(0);
      const verdict = (p99: number) => (p99 <= TARGET_MS ? 'within' : 'OVER');
      return {
        text: [
          `${TRANSFERS} transfers needing an approval at ${RATE}/s (PGlite, the console's own notifier, SMTP and chat receivers on 127.0.0.1):`,
          `  email to each eligible approver (${Math.min(...eligible)}–${Math.max(...eligible)} a transfer, ${emailsExpected} in all): ${email.count} arrived, from the create call p50 ${f(email.p50Ms)} ms, p99 ${f(email.p99Ms)} ms, max ${f(email.maxMs)} ms (${verdict(email.p99Ms)} the 5 s target)${wrongRecipients ? `; ${wrongRecipients} to a member not eligible` : ''}`,
          `  of which the create call itself: p50 ${f(create.p50Ms)} ms, p99 ${f(create.p99Ms)} ms; email from the create's answer p50 ${f(afterAnswer.p50Ms)} ms, p99 ${f(afterAnswer.p99Ms)} ms`,
          `  team webhook: ${team.count} of ${ids.length} arrived, p50 ${f(team.p50Ms)} ms, p99 ${f(team.p99Ms)} ms, max ${f(team.maxMs)} ms (${verdict(team.p99Ms)} the 5 s target)`,
          `  load average ${load.map((l) => l.toFixed(1)).join(' ')} (a shared machine: figures are upper bounds)`,
        ].join('\n'),
        data: {
          transfers: TRANSFERS,
          rate: RATE,
          emailsExpected,
          email,
          createCall: create,
          emailAfterCreateAnswer: afterAnswer,
          wrongRecipients,
          team,
          loadAverage: load,
        },
      };
    } finally {
      await Promise.all([smtp.close(), chat.close()]);
      await server.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};
