import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { paymentRuns } from '../../db/schema/console.ts';
import { raiseApprovalEvent } from '../live/approval-source.ts';

/**
 * Tells open tabs that a run moved (`payment_run.progress`, contract/live-events.ts):
 * written to `console.approval_events`, the log the event stream tails, with the run's
 * status and sub-organization as they are now, so each stream's scope applies. Raised
 * after the change committed: a tab that refetches on it reads the change.
 */
export async function raiseRunProgress(db: Database, clock: Clock, runId: string): Promise<void> {
  const [run] = await db
    .select({ status: paymentRuns.status, subOrgId: paymentRuns.subOrgId })
    .from(paymentRuns)
    .where(eq(paymentRuns.id, runId));
  if (!run) return;
  await raiseApprovalEvent(
    db,
    {
      kind: 'PROGRESS',
      entityType: 'PAYMENT_RUN',
      entityId: runId,
      subOrgId: run.subOrgId,
      status: run.status,
    },
    clock,
  );
}
