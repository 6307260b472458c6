import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { submitPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import { custodyContext, inScope } from '../../../custody/context.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { outflowLocks } from '../../policies/outflow-lock.ts';
import { answerOf, loadRun, loadRunRecord } from '../../payment-runs/store.ts';
import { submitForApproval } from './submit.ts';

/**
 * POST /api/console/payment_runs/{id}/submit/: a checked run proposed for
 * approval as one item, judged by the transactions policy (`submit.ts`).
 */
export function paymentRunSubmitRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  driver: DatabaseHandle['driver'],
) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;
  const lockVaults = outflowLocks(db, driver);
  return mount(app, CONSOLE_API_PREFIX, submitPaymentRun, async ({ params }, c) => {
    const ctx = custodyContext(c);
    const stored = await loadRun(db, params.runId);
    if (!stored || !inScope(ctx, stored.run.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, 'No payment run with that id');
    const { run } = stored;
    // The executor that pays approved runs runs on the sandbox only (server.ts): upstream, an
    // approved run would never be paid while its whole total held its vaults' 24-hour outflow.
    // Refused before anything is committed or voted on.
    if (backend.kind === 'upstream')
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'Payment runs are executed on the sandbox only: in upstream mode a run can be checked but not submitted; send its rows as transactions',
      );
    await submitForApproval({ db, clock, backend, lockVaults }, ctx, stored);
    // The rows as read above: a submit changes none of what the answer shows of them (only
    // their USD values, which it does not show), so only the run is read again.
    const after = await loadRunRecord(db, run.id);
    if (!after) throw new ApiError(404, ERROR_CODES.notFound, 'No payment run with that id');
    return answerOf({ run: after, rows: stored.rows });
  });
}
