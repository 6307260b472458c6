import { activityScope } from '../capabilities/activity/scope.ts';
import { approvalsScope } from '../capabilities/approvals/scope.ts';
import { bankAccountsScope } from '../capabilities/bank-accounts/scope.ts';
import { contactsScope } from '../capabilities/contacts/scope.ts';
import { ledgerScope } from '../capabilities/ledger/scope.ts';
import { operationsScope } from '../capabilities/operations/scope.ts';
import { overviewScope } from '../capabilities/overview/scope.ts';
import { rampsScope } from '../capabilities/ramps/scope.ts';
import { referenceScope } from '../capabilities/reference/scope.ts';
import { transactionsScope } from '../capabilities/transactions/scope.ts';
import { vaultsScope } from '../capabilities/vaults/scope.ts';
import type { CustodyBackend } from '../custody/backend.ts';

/**
 * Holds a staff member (or an API user) to their sub-organizations (ctx.scope; null = all),
 * wrapping whichever backend is configured, so sandbox and upstream behave
 * alike. Each capability states its own rule (`capabilities/<c>/scope.ts`),
 * built from the shared ones in scope-rules.ts; an API user held to
 * sub-organizations is held alike, one held to none passes straight through. What is not a capability's method (kind,
 * upstreamHost, checkReady, apiClients) is the inner backend's.
 */
export function scopedBackend(inner: CustodyBackend): CustodyBackend {
  return {
    ...inner,
    ...contactsScope(inner),
    ...vaultsScope(inner),
    ...transactionsScope(inner),
    ...bankAccountsScope(inner),
    ...approvalsScope(inner),
    ...referenceScope(inner),
    ...rampsScope(inner),
    ...operationsScope(inner),
    ...activityScope(inner),
    ...ledgerScope(inner),
    ...overviewScope(inner),
  };
}
