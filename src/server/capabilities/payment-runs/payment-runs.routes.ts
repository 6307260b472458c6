import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  cancelPaymentRun,
  checkPaymentRun as checkRoute,
  createPaymentRun,
  pausePaymentRun,
  paymentRunReconciliation,
  paymentRunReconciliationCsv,
  resumePaymentRun,
  retryPaymentRun,
  getPaymentRun,
  paymentRunTemplate,
  updatePaymentRow,
  uploadPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import {
  CreatePaymentRunRequest,
  type PaymentRowInput,
  type PaymentRun,
} from '#contract/payment-runs.ts';
import { unauthorized, type AuthOptions } from '../../auth/session-auth.ts';
import { sessionTimeZone } from '../../auth/session.store.ts';
import { custodyContext, inScope } from '../../custody/context.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { checkPaymentRun, type CheckResult } from './check.ts';
import { parseRunCsv, reconciliationCsv, runTemplateCsv } from './csv.ts';
import { raiseRunProgress } from './live.ts';
import { parseBody } from '../../custody/routes/parse-body.ts';
import { checkSnapshot } from './snapshot.ts';
import {
  answerOf,
  cancelRun,
  createRun,
  errorsByRow,
  loadRun,
  moveRun,
  paidReferences,
  reconciliationOf,
  replaceRow,
  retryFailedRows,
  rowInput,
  saveCheck,
  type StoredRun,
} from './store.ts';

/**
 * A row of a run waiting for approval, changed: the run judged again by the
 * approval core as its rows now stand, and the change written with its new
 * rule (approvals/payment-run/edit.ts, handed in by wiring/console.routes.ts:
 * payment-runs never imports approvals). `rows` are the run's rows with the
 * change, `result` their check.
 */
export type EditWaitingRun = (
  ctx: CustodyContext,
  edit: {
    stored: StoredRun;
    index: number;
    row: PaymentRowInput;
    rows: PaymentRowInput[];
    result: CheckResult;
    editorId: string;
  },
) => Promise<void>;

/**
 * A payment run's console routes (contract/endpoints/payment-runs.ts): made
 * as a draft, checked, its rows fixed in place. Submitting it for approval is
 * the approval core's (approvals/payment-run/). Every read and write is held
 * to the member's sub-organizations: a run outside them is a 404.
 */
export function paymentRunRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  editWaiting: EditWaitingRun,
  /** Runs `fn` holding `PAYMENT_REFERENCES_LOCK` (store.ts), as a submit does. */
  lockReferences: <T>(fn: () => Promise<T>) => Promise<T>,
) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;

  async function visible(c: Context<AppEnv>, runId: string) {
    const stored = await loadRun(db, runId);
    if (!stored || !inScope(custodyContext(c), stored.run.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, 'No payment run with that id');
    return stored;
  }

  /** Checks the run's rows as they are now and records the outcome with the rows it was about. */
  async function check(c: Context<AppEnv>, runId: string): Promise<PaymentRun> {
    const stored = await visible(c, runId);
    const rows = stored.rows.map(rowInput);
    const snapshot = await checkSnapshot(db, backend, custodyContext(c), stored.run, rows);
    const result = checkPaymentRun(rows, snapshot);
    const run = await saveCheck(db, clock.now(), runId, stored.run.rowsDigest, result);
    // The rows changed while they were checked: answered as they are now.
    if (!run) return answerOf(await visible(c, runId));
    // Answered from the rows read and what was saved, without reading 1,000 rows again.
    const byRow = errorsByRow(result.errors);
    return answerOf({
      run,
      rows: stored.rows.map((r) => ({ ...r, errors: byRow.get(r.index) ?? [] })),
    });
  }

  async function create(c: Context<AppEnv>, body: CreatePaymentRunRequest): Promise<PaymentRun> {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    const subOrgId = body.subOrgId ?? null;
    if (!inScope(custodyContext(c), subOrgId))
      throw new ApiError(
        403,
        ERROR_CODES.forbidden,
        'subOrgId must name a sub-organization you belong to',
        [{ field: 'subOrgId', message: 'not one of your sub-organizations' }],
      );
    const id = await createRun(db, clock.now(), {
      name: body.name,
      subOrgId,
      createdById: member.id,
      rows: body.rows,
    });
    return check(c, id);
  }

  mount(app, CONSOLE_API_PREFIX, createPaymentRun, async ({ body }, c) => create(c, body));

  // A file's rows are held to the same schema as a request's: a refusal names rows.N.field.
  mount(app, CONSOLE_API_PREFIX, uploadPaymentRun, async ({ body }, c) =>
    create(
      c,
      parseBody(CreatePaymentRunRequest, {
        name: body.name,
        ...(body.subOrgId !== undefined ? { subOrgId: body.subOrgId } : {}),
        rows: parseRunCsv(body.csv, body.mapping),
      }),
    ),
  );

  mount(app, CONSOLE_API_PREFIX, paymentRunTemplate, async (_input, c) =>
    c.body(runTemplateCsv(), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="payment-run-template.csv"',
    }),
  );

  mount(app, CONSOLE_API_PREFIX, getPaymentRun, async ({ params }, c) =>
    answerOf(await visible(c, params.runId)),
  );

  mount(app, CONSOLE_API_PREFIX, updatePaymentRow, async ({ params, body }, c) => {
    const stored = await visible(c, params.runId);
    // eslint-disable-next-line no-restricted-syntax -- a row's number (at most 4 digits), no amount
    const index = /^[1-9]\d{0,3}$/.test(params.index) ? Number(params.index) : null;
    if (index === null)
      throw new ApiError(400, ERROR_CODES.validation, 'index must be a row number from 1', [
        { field: 'index', message: 'must be a row number from 1' },
      ]);
    const member = c.get('staff');
    if (!member) throw unauthorized();
    // A draft's editor is kept with it: its submit keeps them from approving what they wrote.
    if (stored.run.status !== 'PENDING_APPROVAL') {
      await replaceRow(db, clock.now(), params.runId, index, body, member.id);
      return check(c, params.runId);
    }
    // Waiting for approval: checked as it would stand, judged again by the policy, and only
    // then written, with its new rule.
    if (index > stored.rows.length)
      throw new ApiError(404, ERROR_CODES.notFound, `The run has no row ${index}`, [
        { field: 'index', message: `no row ${index}` },
      ]);
    const ctx = custodyContext(c);
    const rows = stored.rows.map((r) => (r.index === index ? body : rowInput(r)));
    const result = checkPaymentRun(rows, await checkSnapshot(db, backend, ctx, stored.run, rows));
    await editWaiting(ctx, { stored, index, row: body, rows, result, editorId: member.id });
    return answerOf(await visible(c, params.runId));
  });

  mount(app, CONSOLE_API_PREFIX, checkRoute, async ({ params }, c) => check(c, params.runId));

  /** A move of an approved run's execution, or a 409 naming where the run stands. */
  async function control(
    c: Context<AppEnv>,
    runId: string,
    what: string,
    act: () => Promise<boolean>,
  ): Promise<PaymentRun> {
    const stored = await visible(c, runId);
    if (!(await act()))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The run is ${stored.run.status}: it cannot be ${what}`,
      );
    // Other tabs showing the run learn of the move at once.
    await raiseRunProgress(db, clock, runId);
    return answerOf(await visible(c, runId));
  }

  // The executor (approvals/payment-run/executor.ts) reads the run's status before each row.
  mount(app, CONSOLE_API_PREFIX, pausePaymentRun, async ({ params }, c) =>
    control(c, params.runId, 'paused', () =>
      moveRun(db, clock.now(), params.runId, ['APPROVED', 'EXECUTING'], 'PAUSED'),
    ),
  );
  mount(app, CONSOLE_API_PREFIX, resumePaymentRun, async ({ params }, c) =>
    control(c, params.runId, 'resumed', () =>
      moveRun(db, clock.now(), params.runId, ['PAUSED'], 'EXECUTING'),
    ),
  );
  mount(app, CONSOLE_API_PREFIX, cancelPaymentRun, async ({ params }, c) =>
    control(c, params.runId, 'cancelled', () => cancelRun(db, clock.now(), params.runId)),
  );
  mount(app, CONSOLE_API_PREFIX, retryPaymentRun, async ({ params }, c) => {
    const stored = await visible(c, params.runId);
    // A row whose transaction was declined at the custody side is not sent again: the custody
    // side's own record says so (a failed transaction ended FAILED, a declined one DECLINED).
    const kept = new Set<number>();
    const failed = stored.rows.filter((r) => r.status === 'FAILED' || r.status === 'REFUSED');
    for (const row of failed)
      if (row.status === 'FAILED' && row.transactionId) {
        const tx = await backend.getTransaction(custodyContext(c), row.transactionId);
        if (tx.status === 'DECLINED') kept.add(row.index);
      }
    // Nor one whose reference another run has since paid or is paying (paid again in a new
    // run, as a failed row is): sent again, it would pay the same invoice twice. Looked up and
    // sent again under the references key a submit takes, so a retry and another run's submit
    // never both find the reference free.
    return lockReferences(async () => {
      const taken = await paidReferences(
        db,
        params.runId,
        failed.map((r) => r.reference),
      );
      for (const row of failed) if (taken.has(row.reference)) kept.add(row.index);
      return control(
        c,
        params.runId,
        'retried (only an executing, paused or partly failed run is, and only its failed rows neither declined at the custody side nor paid, or being paid, by another run)',
        async () => (await retryFailedRows(db, clock.now(), params.runId, kept)) > 0,
      );
    });
  });

  mount(app, CONSOLE_API_PREFIX, paymentRunReconciliation, async ({ params }, c) =>
    reconciliationOf(await visible(c, params.runId)),
  );
  // Times in the member's own zone (their choice, else their browser's), named in the file.
  mount(app, CONSOLE_API_PREFIX, paymentRunReconciliationCsv, async ({ params }, c) => {
    const stored = await visible(c, params.runId);
    const member = c.get('staff');
    if (!member) throw unauthorized();
    const zone = await sessionTimeZone(db, member, c.get('session')?.id);
    return c.body(reconciliationCsv(reconciliationOf(stored).rows, zone), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="payment-run-${stored.run.id}.csv"`,
    });
  });

  return app;
}
