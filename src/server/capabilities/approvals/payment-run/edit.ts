import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';
import type { outflowLocks } from '../../policies/outflow-lock.ts';
import { initiatorOf, judgeAgain, requirementOf } from '../../policies/votes.store.ts';
import type { EditWaitingRun } from '../../payment-runs/payment-runs.routes.ts';
import { describeRows } from '../../payment-runs/check.ts';
import {
  paidReferences,
  PAYMENT_REFERENCES_LOCK,
  replaceRow,
  rowsDigest,
  saveCheck,
  writeRowsUsd,
} from '../../payment-runs/store.ts';
import { runJudge } from './submit.ts';

/**
 * A row of a run waiting for approval, changed: the run is judged again as
 * its rows now stand, as its submit judged it, so a rule is never kept for
 * rows it was not judged on (a $100 run raised to $100,000 needs what
 * $100,000 needs; a change the policy blocks is refused and nothing
 * changes). Its rule, each row's USD value in its vault's outflow, the row
 * and the check are written in one transaction. The member who changed it
 * wrote part of what is paid: like its maker, they never count among its
 * approvers. The votes cast on the old rows stop counting (the card changed).
 */
export function waitingRunEdits(deps: {
  db: Database;
  clock: Clock;
  backend: CustodyBackend;
  lockVaults: ReturnType<typeof outflowLocks>;
}): EditWaitingRun {
  const { db, clock, backend, lockVaults } = deps;
  return async (ctx, edit) => {
    const { stored, index, row, rows, result, editorId } = edit;
    const { run } = stored;
    const waiting = await requirementOf(db, run.id);
    if (!waiting || waiting.settled !== null)
      throw new ApiError(409, ERROR_CODES.conflict, 'The run no longer waits for approval');
    const initiator = initiatorOf(waiting);
    const writers = [...(waiting.requirement.excluded ?? []), run.createdById, editorId];
    const judge = await runJudge(
      { db, clock, backend },
      ctx,
      run,
      rows.map((r, i) => ({ ...r, index: i + 1 })),
    );
    // The vaults the run paid from before and pays from now: both outflows move.
    const vaultIds = [...new Set([...stored.rows, ...rows].map((r) => r.sourceVaultId))];
    // With the references key, as a submit takes it: the edited row's reference is looked up
    // again under it, so an edit and another run's submit never both find it free.
    await lockVaults([PAYMENT_REFERENCES_LOCK, ...vaultIds], async () => {
      if ((await paidReferences(db, run.id, [row.reference])).has(row.reference))
        throw new ApiError(
          409,
          ERROR_CODES.conflict,
          `${describeRows([index])}: another run has paid, or is paying, the same reference since the row was checked; check it again`,
          [{ field: 'reference', message: 'another run has paid, or is paying, this reference' }],
        );
      const { requirement, usdByRow } = await judge(result.simulation.totalUsd, initiator, writers);
      await db.transaction(async (tx) => {
        const now = clock.now();
        await replaceRow(tx, now, run.id, index, row, editorId, {
          status: 'PENDING_APPROVAL',
          rowsDigest: run.rowsDigest,
        });
        await saveCheck(tx, now, run.id, rowsDigest(rows), result);
        if (!(await judgeAgain(tx, run.id, requirement)))
          throw new ApiError(409, ERROR_CODES.conflict, 'The run no longer waits for approval');
        await writeRowsUsd(tx, run.id, usdByRow);
      });
    });
  };
}
