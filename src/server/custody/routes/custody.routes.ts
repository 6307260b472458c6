import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { approvalRoutes } from './approvals.routes.ts';
import { bankAccountRoutes } from './bank-accounts.routes.ts';
import { referenceRoutes } from './reference.routes.ts';
import { transactionRoutes } from './transactions.routes.ts';

/** Everything under /api/external, answered by whichever backend is configured. */
export function custodyRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .route('/', bankAccountRoutes(backend))
    .route('/', transactionRoutes(backend))
    .route('/', referenceRoutes(backend))
    .route('/', approvalRoutes(backend));
}
