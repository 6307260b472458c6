import { Hono } from 'hono';
import { count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { listPaymentRuns } from '#contract/endpoints/payment-runs.ts';
import {
  PAYMENT_RUN_LIST_LIMIT,
  paymentRunProgress,
  type PaymentRowStatus,
  type PaymentRunSummary,
} from '#contract/payment-runs.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import { allowedIds, custodyContext } from '../../custody/context.ts';
import { paymentRunRows, paymentRuns, staff } from '../../db/schema/console.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/**
 * GET /api/console/payment_runs/: the newest runs in the member's scope, each
 * without its rows (a run holds up to 2,000): its totals from its last check
 * and its rows counted by status, one grouped read for the page.
 */
export function paymentRunListRoutes(options: AuthOptions) {
  const app = new Hono<AppEnv>();
  const { db } = options;
  return mount(app, CONSOLE_API_PREFIX, listPaymentRuns, async (_input, c) => {
    const ids = allowedIds(custodyContext(c));
    // A restricted member sees their sub-organizations' runs, never the organization's own.
    const scope: SQL | undefined =
      ids === null ? undefined : ids.length === 0 ? sql`false` : inArray(paymentRuns.subOrgId, ids);
    const runs = await db
      .select({ run: paymentRuns, createdByName: staff.name })
      .from(paymentRuns)
      .leftJoin(staff, eq(staff.id, paymentRuns.createdById))
      .where(scope)
      .orderBy(desc(paymentRuns.createdAt), desc(paymentRuns.id))
      .limit(PAYMENT_RUN_LIST_LIMIT);
    const counts =
      runs.length === 0
        ? []
        : await db
            .select({ runId: paymentRunRows.runId, status: paymentRunRows.status, n: count() })
            .from(paymentRunRows)
            .where(
              inArray(
                paymentRunRows.runId,
                runs.map((r) => r.run.id),
              ),
            )
            .groupBy(paymentRunRows.runId, paymentRunRows.status);
    const byRun = new Map<string, { status: PaymentRowStatus }[]>();
    for (const { runId, status, n } of counts) {
      const list = byRun.get(runId) ?? [];
      for (let i = 0; i < n; i += 1) list.push({ status });
      byRun.set(runId, list);
    }
    const results: PaymentRunSummary[] = runs.map(({ run, createdByName }) => ({
      id: run.id,
      name: run.name,
      status: run.status,
      subOrgId: run.subOrgId,
      createdById: run.createdById,
      createdByName,
      createdAt: run.createdAt.toISOString(),
      totals: run.simulation?.totals ?? [],
      totalUsd: run.simulation?.totalUsd ?? null,
      progress: paymentRunProgress(byRun.get(run.id) ?? []),
    }));
    return { results };
  });
}
