import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { approvalRoutes } from '../capabilities/approvals/approvals.routes.ts';
import type { SigningOptions } from '../capabilities/approvals/signing/signed-decision.ts';
import { bankAccountRoutes } from '../capabilities/bank-accounts/bank-accounts.routes.ts';
import { rampRoutes } from '../capabilities/ramps/ramps.routes.ts';
import { contactRoutes } from '../capabilities/contacts/contacts.routes.ts';
import { operationRoutes } from '../capabilities/operations/operations.routes.ts';
import { vaultRoutes } from '../capabilities/vaults/vaults.routes.ts';
import { referenceRoutes } from '../capabilities/reference/reference.routes.ts';
import { transactionRoutes } from '../capabilities/transactions/transactions.routes.ts';

/** Everything under /api/external, answered by whichever backend is configured. */
export function custodyRoutes(backend: CustodyBackend, signing?: SigningOptions) {
  // Vaults first: GET /transactions/get_deposit_address/ is theirs, not a transaction's id.
  return (
    new Hono<AppEnv>()
      .route('/', vaultRoutes(backend))
      .route('/', bankAccountRoutes(backend))
      // Ramps before transactions: GET /transactions/trade_quote/ is theirs, not a transaction's id.
      .route('/', rampRoutes(backend))
      .route('/', transactionRoutes(backend))
      .route('/', referenceRoutes(backend))
      .route('/', contactRoutes(backend))
      .route('/', approvalRoutes(backend, signing))
      .route('/', operationRoutes(backend))
  );
}
