import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import {
  checkPaymentRun as checkPaymentRunRoute,
  createPaymentRun,
  getPaymentRun,
  paymentRunTemplate,
  retryPaymentRun,
  submitPaymentRun,
  updatePaymentRow,
  uploadPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import type { Policy } from '#contract/policies.ts';
import { approvalProgress } from '#contract/endpoints/policies.ts';
import type { ApprovalProgressList } from '#contract/approval-progress.ts';
import { paymentRunRows, paymentRuns } from '../../db/schema/console.ts';
import { appTest } from '../../test/app-test.ts';
import { createEngineFixture, type EngineFixture } from '../../test/engine-test-app.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import { sendJson } from '../../test/payment-runs.ts';
import { add } from '#contract/decimal.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import { vaultOutflowWithRuns } from '../policies/guard.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * A payment run through the real app: made as a draft with its check errors
 * addressed by row and field, fixed in place, judged by the policy at its
 * total, approved once through the approval core, and a vote cast before a
 * row changed stops counting.
 */

const runTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

/** Runs of $2,500 or more need two approvals: no single row of these reaches it, their total does. */
const LARGE_RUNS: Policy = {
  rules: [
    {
      id: 'large-runs',
      name: 'Large outflow',
      match: { amountUsdAtLeast: '2500' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: {
    action: 'ALLOW',
    approvals: 1,
    approvers: { kinds: [], memberIds: [] },
    apiClientMayApproveOwn: true,
  },
};

/** The transactions policy made LARGE_RUNS, proposed and published by two admins. */
async function publishLargeRuns(t: TestApp) {
  await publishPolicy(t.db, 'transactions', LARGE_RUNS, {
    editor: await t.signIn('admin'),
    reviewer: await t.signIn('admin'),
    now: t.authClock.now(),
  });
}

/** A crypto row to the fixture's Ethereum contact: USDC from the treasury unless told otherwise. */
function cryptoRow(
  f: EngineFixture,
  row: { reference: string; amount: string; sourceVaultId?: string; asset?: string },
) {
  return {
    kind: 'CRYPTO',
    sourceVaultId: row.sourceVaultId ?? f.treasury.id,
    contactId: f.contacts.eth.id,
    asset: row.asset ?? 'USDC',
    blockChain: 'ETHEREUM',
    amount: row.amount,
    reference: row.reference,
  };
}

/** A run `by` makes of `rows`, made (201) whatever its check found. */
async function madeRun(by: StaffSession, name: string, rows: object[]): Promise<PaymentRun> {
  const made = await by.json(pathOf(createPaymentRun, {}), sendJson('POST', { name, rows }));
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as PaymentRun;
}

async function decide(by: StaffSession, runId: string) {
  const card = await by.json(pathOf(approvalCard, { entityId: runId }));
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  const { digest } = card.body as { digest: string };
  return by.json(
    pathOf(decideApprovable, { entityId: runId }),
    sendJson('POST', { action: 'approve', intent: { digest } }),
  );
}

describe('payment runs', () => {
  runTest(
    'are checked row by row, fixed in place, judged at their total and approved once',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const ada = await t.signIn('approver');
      const ben = await t.signIn('admin');
      await publishPolicy(t.db, 'transactions', LARGE_RUNS, {
        editor: ben,
        reviewer: await t.signIn('admin'),
        now: t.authClock.now(),
      });
      const usdc = (reference: string, amount: string, contactId = f.contacts.eth.id) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount,
        reference,
      });

      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', {
          name: 'Vendors, route test',
          rows: [
            usdc('RT-1', '1000'),
            usdc('RT-2', '1000'),
            usdc('RT-3', '1000'),
            usdc('RT-4', '10', f.contacts.ethPending.id),
          ],
        }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const run = created.body as PaymentRun;
      expect(run.status).toBe('DRAFT');
      expect(run.errors.map((e) => [e.row, e.field, e.code])).toEqual([
        [4, 'contactId', 'CONTACT_NOT_APPROVED'],
      ]);
      // Outside a restricted member's sub-organizations it is not found, for reads and writes.
      const away = await createSubOrg(t.db, t.orgId, 'Runs elsewhere');
      const outsider = await t.signIn('admin', { subOrgIds: [away.id] });
      expect((await outsider.json(pathOf(getPaymentRun, { runId: run.id }))).status).toBe(404);
      const poke = await outsider.json(
        pathOf(updatePaymentRow, { runId: run.id, index: '1' }),
        sendJson('PATCH', usdc('RT-1', '1')),
      );
      expect(poke.status).toBe(404);
      const early = await initiator.json(
        pathOf(submitPaymentRun, { runId: run.id }),
        sendJson('POST'),
      );
      expect(early.status, JSON.stringify(early.body)).toBe(409);

      const fixed = await initiator.json(
        pathOf(updatePaymentRow, { runId: run.id, index: '4' }),
        sendJson('PATCH', usdc('RT-4', '10')),
      );
      expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
      expect(fixed.body).toMatchObject({ status: 'CHECKED', errors: [] });

      const submitted = await initiator.json(
        pathOf(submitPaymentRun, { runId: run.id }),
        sendJson('POST'),
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      expect(submitted.body).toMatchObject({ status: 'PENDING_APPROVAL' });
      const card = await ada.json(pathOf(approvalCard, { entityId: run.id }));
      expect(card.body).toMatchObject({
        card: {
          intent: {
            kind: 'PAYMENT_RUN',
            rule: { name: 'Large outflow' },
            run: {
              rowCount: 4,
              rowsDigest: (fixed.body as PaymentRun).rowsDigest,
              totals: [{ asset: 'USDC', blockChain: 'ETHEREUM', amount: '3010' }],
            },
          },
          // The card speaks the approval's word, as every held kind's does: the held
          // item's page offers Approve and Decline while it reads PENDING.
          status: { state: 'PENDING', quorum: { required: 2 } },
        },
      });

      // The initiator never approves their own run.
      const own = await decide(initiator, run.id);
      expect(own.status).toBe(403);

      const first = await decide(ada, run.id);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({ status: 'PENDING', policy: { approvals: 1 } });

      // A row edited after Ada's vote: the rows' digest moves, and her vote stops counting.
      const edited = await initiator.json(
        pathOf(updatePaymentRow, { runId: run.id, index: '3' }),
        sendJson('PATCH', usdc('RT-3', '900')),
      );
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body).toMatchObject({ status: 'PENDING_APPROVAL', errors: [] });
      const second = await decide(ben, run.id);
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ status: 'PENDING', policy: { approvals: 1 } });
      expect(
        ((await initiator.json(pathOf(getPaymentRun, { runId: run.id }))).body as PaymentRun)
          .status,
      ).toBe('PENDING_APPROVAL');

      const again = await decide(ada, run.id);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ status: 'APPROVED' });
      const approved = await initiator.json(pathOf(getPaymentRun, { runId: run.id }));
      expect(approved.body).toMatchObject({ status: 'APPROVED' });
    },
  );

  runTest(
    'name only members among who may approve a run: no API client ever decides one',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const ada = await t.signIn('approver');
      // The rule that applies lets anyone who may approve decide: API clients too, for a transfer.
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', {
          name: 'Who approves',
          rows: [
            {
              kind: 'CRYPTO',
              sourceVaultId: f.treasury.id,
              contactId: f.contacts.eth.id,
              asset: 'USDC',
              blockChain: 'ETHEREUM',
              amount: '5',
              reference: 'WHO-1',
            },
          ],
        }),
      );
      const runId = (created.body as PaymentRun).id;
      const submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const card = await ada.json(pathOf(approvalCard, { entityId: runId }));
      const waitingOn = (card.body as { card: { status: { quorum: { waitingOn: string } } } }).card
        .status.quorum.waitingOn;
      expect(waitingOn).toMatch(/^waiting for one more of/);
      expect(waitingOn).not.toContain('API client');
      const progress = await ada.json(
        `${pathOf(approvalProgress, {})}?entityIds=${encodeURIComponent(runId)}`,
      );
      expect((progress.body as ApprovalProgressList).results).toMatchObject([
        { entityId: runId, apiClientsMayApprove: false },
      ]);
    },
  );

  runTest(
    'a submit whose rule cannot be frozen leaves the run checked, to be submitted again',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', {
          name: 'Frozen or not at all',
          rows: [
            {
              kind: 'CRYPTO',
              sourceVaultId: f.treasury.id,
              contactId: f.contacts.eth.id,
              asset: 'USDC',
              blockChain: 'ETHEREUM',
              amount: '5',
              reference: 'ATOMIC-1',
            },
          ],
        }),
      );
      const runId = (created.body as PaymentRun).id;
      // The database refuses this run's rule, as a crash between the two writes would leave it.
      await t.db.execute(
        sql.raw(`create function console.refuse_rule() returns trigger language plpgsql as $$
          begin
            if new.entity_id = '${runId}' then raise exception 'rule refused'; end if;
            return new;
          end $$`),
      );
      await t.db.execute(
        sql.raw(`create trigger refuse_rule before insert on console.approval_requirements
          for each row execute function console.refuse_rule()`),
      );
      try {
        const refused = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
        expect(refused.status).not.toBe(200);
      } finally {
        await t.db.execute(sql.raw('drop trigger refuse_rule on console.approval_requirements'));
        await t.db.execute(sql.raw('drop function console.refuse_rule()'));
      }
      // Not waiting without a rule, out of every inbox: still checked, and submitted again.
      const run = (await initiator.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun;
      expect(run.status).toBe('CHECKED');
      const again = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect((again.body as PaymentRun).status).toBe('PENDING_APPROVAL');
    },
  );

  runTest('refuse a run over the rows limit naming the field', async ({ t, f }) => {
    const initiator = await t.signIn('initiator');
    const row = {
      kind: 'CRYPTO',
      sourceVaultId: f.treasury.id,
      contactId: f.contacts.eth.id,
      asset: 'USDC',
      blockChain: 'ETHEREUM',
      amount: '1',
      reference: 'LIMIT',
    };
    const tooMany = await initiator.json(
      pathOf(createPaymentRun, {}),
      sendJson('POST', { name: 'Too many', rows: Array.from({ length: 2001 }, () => row) }),
    );
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.body)).toMatch(/rows/);
    const bad = await initiator.json(
      pathOf(createPaymentRun, {}),
      sendJson('POST', { name: 'Bad amount', rows: [row, { ...row, amount: 'ten' }] }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ fields: [{ field: 'rows.1.amount' }] });
  });

  runTest(
    'come from a CSV file with its own headers, checked as JSON rows are',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const template = await initiator.request(pathOf(paymentRunTemplate, {}));
      expect(template.status).toBe(200);
      expect(template.headers.get('content-type')).toMatch(/^text\/csv/);
      expect((await template.text()).split('\r\n')[0]).toMatch(/^kind,sourceVaultId,contactId/);

      const csv =
        'Type,Vault,Payee,Token,Network,Value,Invoice\r\n' +
        `CRYPTO,${f.treasury.id},${f.contacts.eth.id},USDC,ETHEREUM,12.5,CSV-1\r\n` +
        `CRYPTO,${f.treasury.id},no-such-contact,USDC,ETHEREUM,1,CSV-2\r\n`;
      const mapping = {
        Type: 'kind',
        Vault: 'sourceVaultId',
        Payee: 'contactId',
        Token: 'asset',
        Network: 'blockChain',
        Value: 'amount',
        Invoice: 'reference',
      };
      const uploaded = await initiator.json(
        pathOf(uploadPaymentRun, {}),
        sendJson('POST', { name: 'From a file', csv, mapping }),
      );
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      const run = uploaded.body as PaymentRun;
      expect(run.rows.map((r) => [r.index, r.amount, r.reference])).toEqual([
        [1, '12.5', 'CSV-1'],
        [2, '1', 'CSV-2'],
      ]);
      expect(run.errors.map((e) => [e.row, e.field, e.code])).toEqual([
        [2, 'contactId', 'UNKNOWN_CONTACT'],
      ]);
      const bad = await initiator.json(
        pathOf(uploadPaymentRun, {}),
        sendJson('POST', { name: 'Bad file', csv: csv.replace('12.5', 'twelve'), mapping }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ fields: [{ field: 'rows.0.amount' }] });
    },
  );
  runTest(
    'count their whole total in the 24-hour outflow from submit, until each row is sent',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const ben = await t.signIn('admin');
      // The treasury's day so far as the cap reads it (other runs committed from it included);
      // the cap sits $4,000 above it.
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId });
      const today =
        (await vaultOutflowWithRuns(sandbox, t.db, t.clock, {}, f.treasury.id)) ?? 'unknown';
      const cap: Policy = {
        rules: [
          {
            id: 'daily-cap',
            name: 'Daily cap',
            match: { outflow24hUsdAbove: add(today, '4000') },
            outcome: { action: 'BLOCK' },
          },
        ],
        fallback: LARGE_RUNS.fallback,
      };
      await publishPolicy(t.db, 'transactions', cap, {
        editor: ben,
        reviewer: await t.signIn('admin'),
        now: t.authClock.now(),
      });
      const transfer = (amount: string) =>
        initiator.json(
          '/api/external/transactions/',
          sendJson('POST', {
            category: 'TRANSFER',
            source: { type: 'VAULT', id: f.treasury.id },
            destination: { type: 'CONTACT', id: f.contacts.eth.id },
            asset: 'USDC',
            blockChain: 'ETHEREUM',
            amount,
          }),
        );
      const row = (reference: string) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '1000',
        reference,
      });
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', { name: 'Cap test', rows: [row('CAP-1'), row('CAP-2'), row('CAP-3')] }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const runId = (created.body as PaymentRun).id;
      const submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

      // $3,000 committed by the run and $1,500 more: over the cap, though no transaction of
      // the run exists yet.
      const over = await transfer('1500');
      expect(over.status, JSON.stringify(over.body)).toBe(403);
      expect(over.body).toMatchObject({ code: 'POLICY_BLOCKED' });
      // A second run of the same size is over it too, judged with the first one counted.
      const again = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', { name: 'Cap test 2', rows: [row('CAP-4'), row('CAP-5')] }),
      );
      const second = await initiator.json(
        pathOf(submitPaymentRun, { runId: (again.body as PaymentRun).id }),
        sendJson('POST'),
      );
      expect(second.status, JSON.stringify(second.body)).toBe(403);
      // Under it, still allowed.
      const under = await transfer('500');
      expect(under.status, JSON.stringify(under.body)).toBe(200);
    },
  );

  runTest(
    'judge a waiting run again when a row changes, and never count the member who changed it',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const ada = await t.signIn('approver');
      const ben = await t.signIn('admin');
      const cleo = await t.signIn('admin');
      // $4,500 or more is blocked, $2,500 or more needs two approvals, anything less one.
      const tiers: Policy = {
        rules: [
          {
            id: 'too-large',
            name: 'Too large',
            match: { amountUsdAtLeast: '4500' },
            outcome: { action: 'BLOCK' },
          },
          ...LARGE_RUNS.rules,
        ],
        fallback: LARGE_RUNS.fallback,
      };
      await publishPolicy(t.db, 'transactions', tiers, {
        editor: ben,
        reviewer: await t.signIn('admin'),
        now: t.authClock.now(),
      });
      const row = (reference: string, amount: string, memo?: string) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount,
        reference,
        ...(memo === undefined ? {} : { memo }),
      });
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId });
      const committed = async () =>
        (await vaultOutflowWithRuns(sandbox, t.db, t.clock, {}, f.treasury.id)) ?? 'unknown';
      const before = await committed();
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', {
          name: 'Edited while waiting',
          rows: [row('ED-1', '100'), row('ED-2', '100')],
        }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const runId = (created.body as PaymentRun).id;
      const submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const rule = async () => {
        const card = await ada.json(pathOf(approvalCard, { entityId: runId }));
        const { intent, status } = (
          card.body as {
            card: {
              intent: { rule: { name: string } };
              status: { quorum: { required: number } };
            };
          }
        ).card;
        return [intent.rule.name, status.quorum.required];
      };
      const [fallback, one] = await rule();
      expect(fallback).not.toBe('Large outflow');
      expect(one).toBe(1);

      // $2,600 now: the rule for $2,600 applies, and the day's outflow counts the new amount.
      const raised = await initiator.json(
        pathOf(updatePaymentRow, { runId, index: '2' }),
        sendJson('PATCH', row('ED-2', '2500')),
      );
      expect(raised.status, JSON.stringify(raised.body)).toBe(200);
      expect(raised.body).toMatchObject({ status: 'PENDING_APPROVAL', errors: [] });
      expect(await rule()).toEqual(['Large outflow', 2]);
      expect(await committed()).toBe(add(before, '2600'));

      // A change the policy blocks is refused, and the run stays as it was.
      const blocked = await initiator.json(
        pathOf(updatePaymentRow, { runId, index: '2' }),
        sendJson('PATCH', row('ED-2', '4800')),
      );
      expect(blocked.status, JSON.stringify(blocked.body)).toBe(403);
      const kept = (await initiator.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun;
      expect(kept.rows.map((r) => r.amount)).toEqual(['100', '2500']);
      expect(kept.status).toBe('PENDING_APPROVAL');
      expect(await rule()).toEqual(['Large outflow', 2]);

      // An admin who changes a row wrote part of what is paid: their approval never counts.
      const changed = await ben.json(
        pathOf(updatePaymentRow, { runId, index: '1' }),
        sendJson('PATCH', row('ED-1', '100', 'changed by Ben')),
      );
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const own = await decide(ben, runId);
      expect(own.status, JSON.stringify(own.body)).toBe(403);
      expect(own.body).toMatchObject({ code: 'FOUR_EYES' });
      expect((await decide(ada, runId)).body).toMatchObject({ status: 'PENDING' });
      expect((await decide(cleo, runId)).body).toMatchObject({ status: 'APPROVED' });
    },
  );

  runTest(
    'never count the approval of the member who made a run another member submitted',
    async ({ t, f }) => {
      const maker = await t.signIn('admin');
      const submitter = await t.signIn('initiator');
      await publishLargeRuns(t);
      const { id: runId } = await madeRun(maker, 'Made by one, submitted by another', [
        cryptoRow(f, { amount: '4', reference: 'MADE-1' }),
      ]);
      const submitted = await submitter.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const own = await decide(maker, runId);
      expect(own.status, JSON.stringify(own.body)).toBe(403);
      expect(own.body).toMatchObject({ code: 'FOUR_EYES' });
      expect((await decide(await t.signIn('approver'), runId)).body).toMatchObject({
        status: 'APPROVED',
      });
    },
  );

  runTest(
    'never count the approval of a member who edited a draft another member made and submitted',
    async ({ t, f }) => {
      // Named to come first among the members the progress names (it names the first ten).
      const maker = await t.signIn('admin', { name: 'Aa Draft Maker' });
      const editor = await t.signIn('admin', { name: 'Aa Draft Editor' });
      const reader = await t.signIn('approver', { name: 'Aa Draft Reader' });
      await publishLargeRuns(t);
      const row = (reference: string, amount: string) => cryptoRow(f, { reference, amount });
      const { id: runId } = await madeRun(maker, 'Made by one, edited by another', [
        row('DRAFT-ED-1', '3'),
      ]);
      // Another member rewrites the row while it is a draft; a third only reads it.
      const edited = await editor.json(
        pathOf(updatePaymentRow, { runId, index: '1' }),
        sendJson('PATCH', row('DRAFT-ED-1', '4')),
      );
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect((await reader.json(pathOf(getPaymentRun, { runId }))).status).toBe(200);
      const submitted = await maker.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

      // The progress names the reader among those who may still approve, never the editor.
      const progress = await reader.json(
        `${pathOf(approvalProgress, {})}?entityIds=${encodeURIComponent(runId)}`,
      );
      expect(progress.status, JSON.stringify(progress.body)).toBe(200);
      const [only] = (progress.body as ApprovalProgressList).results;
      const still = (only?.stillEligible ?? []).map((m) => m.id);
      expect(still).toContain(reader.member.id);
      expect(still).not.toContain(editor.member.id);
      expect(still).not.toContain(maker.member.id);

      // The editor is refused as a maker who did not submit is: the run concerns them.
      const theirs = await decide(editor, runId);
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(403);
      expect(theirs.body).toMatchObject({ code: 'FOUR_EYES' });
      expect(JSON.stringify(theirs.body)).toMatch(/a draft you edited/);
      expect((await decide(reader, runId)).body).toMatchObject({ status: 'APPROVED' });
    },
  );

  runTest(
    'refuse one of two runs submitted at once from different vaults paying the same reference',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      await publishLargeRuns(t);
      const make = async (name: string, sourceVaultId: string) => {
        const run = await madeRun(initiator, name, [
          cryptoRow(f, { sourceVaultId, asset: 'ETH', amount: '0.001', reference: 'AT-ONCE-1' }),
        ]);
        expect(run.status, JSON.stringify(run.errors)).toBe('CHECKED');
        return run.id;
      };
      const fromTreasury = await make('Same invoice, from the treasury', f.treasury.id);
      const fromOps = await make('Same invoice, from operations', f.ops.id);
      const answers = await Promise.all(
        [fromTreasury, fromOps].map((runId) =>
          initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST')),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const refused = answers.find((a) => a.status === 409);
      expect(JSON.stringify(refused?.body)).toMatch(/row 1/);
      const statuses = await Promise.all(
        [fromTreasury, fromOps].map(
          async (runId) =>
            ((await initiator.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun).status,
        ),
      );
      expect(statuses.sort()).toEqual(['CHECKED', 'PENDING_APPROVAL']);
    },
  );

  runTest(
    'refuse one of a waiting run’s row edit and another run’s submit made at once for the same reference',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      await publishLargeRuns(t);
      const row = (sourceVaultId: string, reference: string) =>
        cryptoRow(f, { sourceVaultId, asset: 'ETH', amount: '0.001', reference });
      const make = async (name: string, sourceVaultId: string, reference: string) =>
        (await madeRun(initiator, name, [row(sourceVaultId, reference)])).id;
      const waiting = await make('Waiting, then edited', f.treasury.id, 'EDIT-RACE-OWN');
      const submittedFirst = await initiator.json(
        pathOf(submitPaymentRun, { runId: waiting }),
        sendJson('POST'),
      );
      expect(submittedFirst.status, JSON.stringify(submittedFirst.body)).toBe(200);
      const other = await make('Submitted as the edit is made', f.ops.id, 'EDIT-RACE-SHARED');
      const [edited, submitted] = await Promise.all([
        initiator.json(
          pathOf(updatePaymentRow, { runId: waiting, index: '1' }),
          sendJson('PATCH', row(f.treasury.id, 'EDIT-RACE-SHARED')),
        ),
        initiator.json(pathOf(submitPaymentRun, { runId: other }), sendJson('POST')),
      ]);
      // The edit either wrote the reference, and the submit then saw it, or found it taken.
      const paying = [edited, submitted].filter((answer) => {
        const run = answer.body as PaymentRun;
        return (
          answer.status === 200 && run.status === 'PENDING_APPROVAL' && run.errors.length === 0
        );
      });
      expect(
        paying.length,
        JSON.stringify([edited.status, edited.body, submitted.status, submitted.body]),
      ).toBe(1);
    },
  );

  runTest(
    'let one of a failed row’s retry and another run’s submit made at once for its reference go on',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      await publishLargeRuns(t);
      const row = (sourceVaultId: string) =>
        cryptoRow(f, { sourceVaultId, asset: 'ETH', amount: '0.001', reference: 'RETRY-RACE-1' });
      const { id: failedRun } = await madeRun(initiator, 'Its row failed', [row(f.treasury.id)]);
      const submittedFirst = await initiator.json(
        pathOf(submitPaymentRun, { runId: failedRun }),
        sendJson('POST'),
      );
      expect(submittedFirst.status, JSON.stringify(submittedFirst.body)).toBe(200);
      expect((await decide(await t.signIn('approver'), failedRun)).body).toMatchObject({
        status: 'APPROVED',
      });
      // As the executor leaves a run whose one row failed before anything was made.
      await t.db
        .update(paymentRunRows)
        .set({ status: 'FAILED' })
        .where(eq(paymentRunRows.runId, failedRun));
      await t.db
        .update(paymentRuns)
        .set({ status: 'PARTIALLY_FAILED' })
        .where(eq(paymentRuns.id, failedRun));
      const { id: other } = await madeRun(initiator, 'The same invoice, elsewhere', [
        row(f.ops.id),
      ]);

      const [retried, submitted] = await Promise.all([
        initiator.json(pathOf(retryPaymentRun, { runId: failedRun }), sendJson('POST')),
        initiator.json(pathOf(submitPaymentRun, { runId: other }), sendJson('POST')),
      ]);
      expect(
        [retried.status, submitted.status].filter((status) => status === 200),
        JSON.stringify([retried.body, submitted.body]),
      ).toHaveLength(1);
    },
  );

  runTest(
    'refuse a reference another run is paying, not only one it has paid',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      await publishLargeRuns(t);
      const make = (name: string, reference: string) =>
        madeRun(initiator, name, [cryptoRow(f, { amount: '7', reference })]);
      const submit = (runId: string) =>
        initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));

      // The same file made twice: the first waits for approval, so the second is caught.
      const first = await make('Vendors, first upload', 'TWICE-1');
      expect((await submit(first.id)).status).toBe(200);
      const second = await make('Vendors, second upload', 'TWICE-1');
      expect(second.errors.map((e) => [e.row, e.field, e.code])).toEqual([
        [1, 'reference', 'REFERENCE_ALREADY_PAID'],
      ]);

      // Both checked before either was submitted: the second submit is refused, and checked
      // again the run names the row.
      const early = await make('Payroll, first upload', 'TWICE-2');
      const late = await make('Payroll, second upload', 'TWICE-2');
      expect([early.status, late.status]).toEqual(['CHECKED', 'CHECKED']);
      expect((await submit(early.id)).status).toBe(200);
      const refused = await submit(late.id);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(JSON.stringify(refused.body)).toMatch(/row 1/);
      const again = await initiator.json(
        pathOf(checkPaymentRunRoute, { runId: late.id }),
        sendJson('POST'),
      );
      expect((again.body as PaymentRun).errors.map((e) => [e.row, e.code])).toEqual([
        [1, 'REFERENCE_ALREADY_PAID'],
      ]);
    },
  );
});
