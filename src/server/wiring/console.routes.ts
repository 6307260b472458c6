import { Hono } from 'hono';
import type { AuthOptions } from '../auth/session-auth.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { AppEnv } from '../http/app-env.ts';
import { approvalDecisionRoutes } from '../capabilities/approvals/who-decided.routes.ts';
import { approvalCardRoutes } from '../capabilities/approvals/card/card.routes.ts';
import type { ApprovableKind } from '../capabilities/approvals/core/kind.ts';
import { approvalInboxRoutes } from '../capabilities/approvals/inbox.routes.ts';
import { paymentRunSubmitRoutes } from '../capabilities/approvals/payment-run/submit.routes.ts';
import { schedulePreApprovals } from '../capabilities/approvals/payment-run/pre-approval.ts';
import { waitingRunEdits } from '../capabilities/approvals/payment-run/edit.ts';
import { outflowLocks } from '../capabilities/policies/outflow-lock.ts';
import { paymentRunListRoutes } from '../capabilities/payment-runs/list.routes.ts';
import { paymentRunRoutes } from '../capabilities/payment-runs/payment-runs.routes.ts';
import { PAYMENT_REFERENCES_LOCK } from '../capabilities/payment-runs/store.ts';
import { paymentRunScheduleRoutes } from '../capabilities/payment-runs/schedule/schedule.routes.ts';
import { auditRoutes } from '../console/audit.routes.ts';
import { contactHistoryRoutes } from '../capabilities/contacts/history.routes.ts';
import { bankAccountMatchesRoutes } from '../capabilities/bank-accounts/matches.routes.ts';
import { historyRoutes } from '../capabilities/bank-accounts/history.routes.ts';
import { overviewRoutes } from '../capabilities/overview/overview.routes.ts';
import { ledgerRoutes } from '../capabilities/ledger/ledger.routes.ts';
import { journalRoutes } from '../capabilities/ledger/journal/journal.routes.ts';
import { ledgerPeriodRoutes } from '../capabilities/ledger/periods/periods.routes.ts';
import { policyRoutes } from '../capabilities/policies/policies.routes.ts';
import { sandboxQuoteRoutes } from '../capabilities/sandbox-world/expire-quote.routes.ts';
import { sandboxWorldRoutes } from '../capabilities/sandbox-world/world.routes.ts';
import { revealRoutes } from '../capabilities/bank-accounts/reveal.routes.ts';
import { bankAccountRampRoutes } from '../capabilities/ramps/ramps.routes.ts';
import { staffRoutes } from '../console/staff.routes.ts';
import { proposeStaffChange } from '../capabilities/approvals/staff-change/staff-change.ts';
import { transactionHistoryRoutes } from '../capabilities/transactions/history.routes.ts';
import { stakedRoutes } from '../capabilities/transactions/staked.routes.ts';
import { cancelScheduledRoutes } from '../capabilities/transactions/cancel.routes.ts';
import { webhookRoutes } from '../capabilities/webhooks/webhooks.routes.ts';
import { notificationRoutes } from '../capabilities/notifications/notifications.routes.ts';
import type { TargetPolicy } from '../capabilities/webhooks/targets.ts';

/** Everything under /api/console: the console's own API, for signed-in staff only. */
export function consoleRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  kinds: readonly ApprovableKind[],
  driver: DatabaseHandle['driver'],
  /** Which team chat webhooks may be added (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  chatTargets: TargetPolicy = { allowPrivate: false },
) {
  const locks = outflowLocks(options.db, driver);
  return new Hono<AppEnv>()
    .route(
      '/',
      staffRoutes(options, (input, proposer) =>
        proposeStaffChange(options.db, options.clock, input, proposer),
      ),
    )
    .route('/', auditRoutes(options))
    .route('/', revealRoutes(options, backend))
    .route('/', historyRoutes(options, backend))
    .route('/', contactHistoryRoutes(options, backend))
    .route('/', bankAccountMatchesRoutes(backend))
    .route('/', transactionHistoryRoutes(options, backend))
    .route('/', stakedRoutes(backend))
    .route('/', cancelScheduledRoutes(backend))
    .route('/', approvalDecisionRoutes(options, backend))
    .route('/', approvalInboxRoutes(options, backend, kinds))
    .route('/', approvalCardRoutes(options, backend, kinds))
    .route('/', policyRoutes(options, backend, kinds))
    .route('/', overviewRoutes(options, backend, kinds))
    .route('/', ledgerRoutes(options, backend))
    .route('/', ledgerPeriodRoutes(options, backend))
    .route('/', journalRoutes(options, backend))
    .route('/', bankAccountRampRoutes(backend))
    .route('/', webhookRoutes(options, backend))
    .route('/', notificationRoutes(options, chatTargets))
    .route('/', sandboxWorldRoutes(backend))
    .route('/', sandboxQuoteRoutes(backend))
    .route('/', paymentRunListRoutes(options))
    .route(
      '/',
      paymentRunRoutes(
        options,
        backend,
        waitingRunEdits({
          db: options.db,
          clock: options.clock,
          backend,
          lockVaults: locks,
        }),
        (fn) => locks([PAYMENT_REFERENCES_LOCK], fn),
      ),
    )
    .route('/', paymentRunSubmitRoutes(options, backend, driver))
    .route(
      '/',
      paymentRunScheduleRoutes(options, backend, schedulePreApprovals(options.db, options.clock)),
    );
}
