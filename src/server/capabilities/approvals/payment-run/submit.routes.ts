import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, mul } from '#contract/decimal.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { submitPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import { custodyContext, inScope } from '../../../custody/context.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';

import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { requirementFor, type ItemFacts } from '../../policies/evaluate.ts';
import { policyActor, vaultOutflowWithRuns } from '../../policies/guard.ts';
import { outflowLocks } from '../../policies/outflow-lock.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { activePolicy } from '../../policies/policies.store.ts';
import { answerOf, loadRun, submitRun } from '../../payment-runs/store.ts';
import { proposeHeld } from '../core/propose.ts';
import { paymentRunKind } from './kind.ts';

/**
 * POST /api/console/payment_runs/{id}/submit/: a checked run proposed for
 * approval as one item. The transactions policy judges every row (a rule that
 * blocks any row blocks the run) and the run as a whole at its total USD
 * value, with the 24-hour outflow of its source vaults before it, so a run of
 * 400 × $900 is judged as the $360,000 outflow it is. The run's rule is frozen
 * on it; no API client may approve a run, its own or another's.
 *
 * The outflow is read, the run judged and its rows' values written (from then
 * on they count in their vaults' outflow until each is sent) under the
 * outflow locks of all its vaults: no transfer or other run is judged on the
 * day's figure without it.
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
    const { run, rows } = stored;
    // The executor that pays approved runs runs on the sandbox only (server.ts): upstream, an
    // approved run would never be paid while its whole total held its vaults' 24-hour outflow.
    // Refused before anything is committed or voted on.
    if (backend.kind === 'upstream')
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'Payment runs are executed on the sandbox only: in upstream mode a run can be checked but not submitted; send its rows as transactions',
      );
    if (run.status !== 'CHECKED' || run.errors.length > 0 || !run.simulation)
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The run is ${run.status}${run.errors.length ? ` with ${run.errors.length} check errors` : ''}: only a checked run without errors is submitted`,
      );
    const initiator = await policyActor(db, ctx);
    const { policy, version } = await activePolicy(db, 'transactions');

    // One price per asset and chain, read once: each row's value is its amount at that price.
    const prices = new Map<string, string | null>();
    for (const row of rows) {
      const key = `${row.asset}:${row.blockChain}`;
      if (prices.has(key)) continue;
      prices.set(
        key,
        backend.usdValue
          ? await backend.usdValue(ctx, row.asset, row.blockChain, '1', row.sourceVaultId)
          : null,
      );
    }
    const { simulation } = run;
    const vaultIds = [...new Set(rows.map((r) => r.sourceVaultId))];
    await lockVaults(vaultIds, async () => {
      // Each vault's day so far and the other runs committed from it; any unknown: unknown
      // for the run, and an outflow cap then applies (fail closed).
      const outflows = await Promise.all(
        vaultIds.map((id) => vaultOutflowWithRuns(backend, db, clock, ctx, id, run.id)),
      );
      const outflow = outflows.some((o) => o === null)
        ? null
        : outflows.reduce<string>((a, b) => add(a, b ?? '0'), '0');
      const base = { subOrgId: run.subOrgId, category: 'TRANSFER', initiator } as const;
      const judged: {
        row: number | null;
        usd: string | null;
        requirement: FrozenRequirement;
      }[] = rows.map((row) => {
        const price = prices.get(`${row.asset}:${row.blockChain}`) ?? null;
        const usd = price === null ? null : mul(row.amount, price);
        const facts: ItemFacts = {
          ...base,
          asset: row.asset,
          chain: row.blockChain,
          amountUsd: usd,
          destinationKind:
            row.kind === 'FIAT'
              ? 'BANK_ACCOUNT'
              : row.contactId !== null
                ? 'CONTACT'
                : 'EXTERNAL_ADDRESS',
          outflow24hUsd: outflow,
        };
        return { row: row.index, usd, requirement: requirementFor(policy, version, facts) };
      });
      const total = requirementFor(policy, version, {
        ...base,
        amountUsd: simulation.totalUsd,
        outflow24hUsd: outflow,
      });
      judged.push({ row: null, usd: simulation.totalUsd, requirement: total });
      const blocked = judged.find((j) => j.requirement.outcome.action === 'BLOCK');
      if (blocked)
        throw new ApiError(
          403,
          ERROR_CODES.forbidden,
          blocked.row === null
            ? `The rule "${blocked.requirement.ruleName}" blocks the run as a whole`
            : `The rule "${blocked.requirement.ruleName}" blocks row ${blocked.row}`,
        );
      // The run's rule, judged at its total; never approved by an API client, whoever made it.
      const requirement: FrozenRequirement =
        total.outcome.action === 'ALLOW'
          ? { ...total, outcome: { ...total.outcome, apiClientMayApproveOwn: false } }
          : total;

      const usdByRow = new Map(
        judged.flatMap((j) => (j.row === null ? [] : ([[j.row, j.usd]] as const))),
      );
      if (!(await submitRun(db, clock.now(), run.id, usdByRow)))
        throw new ApiError(409, ERROR_CODES.conflict, 'The run changed while it was submitted');
      await proposeHeld(db, clock, {
        kind: paymentRunKind,
        entityId: run.id,
        subOrgId: run.subOrgId,
        requirement,
        initiator,
      });
    });
    const after = await loadRun(db, run.id);
    if (!after) throw new ApiError(404, ERROR_CODES.notFound, 'No payment run with that id');
    return answerOf(after);
  });
}
