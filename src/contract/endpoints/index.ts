import type { Endpoint } from '../endpoint.ts';
import * as account from './account.ts';
import * as activity from './activity.ts';
import * as apiUsers from './api-users.ts';
import * as approvalCardPreview from './approval-card-preview.ts';
import * as approvalCards from './approval-cards.ts';
import * as approvalSignatures from './approval-signatures.ts';
import * as approvables from './approvables.ts';
import * as approvalCounts from './approval-counts.ts';
import * as approvals from './approvals.ts';
import * as bankAccountWrites from './bank-account-writes.ts';
import * as bankAccounts from './bank-accounts.ts';
import * as consoleEndpoints from './console.ts';
import * as operations from './operations.ts';
import * as overview from './overview.ts';
import * as paymentRunSchedules from './payment-run-schedules.ts';
import * as paymentRuns from './payment-runs.ts';
import * as policies from './policies.ts';
import * as policyWrites from './policy-writes.ts';
import * as rampWrites from './ramp-writes.ts';
import * as ramps from './ramps.ts';
import * as contactWrites from './contact-writes.ts';
import * as contacts from './contacts.ts';
import * as ledger from './ledger.ts';
import * as ledgerPeriods from './ledger-periods.ts';
import * as live from './live.ts';
import * as notifications from './notifications.ts';
import * as reference from './reference.ts';
import * as sandboxWorld from './sandbox-world.ts';
import * as session from './session.ts';
import * as staff from './staff.ts';
import * as subOrgWrites from './sub-org-writes.ts';
import * as transactionWrites from './transaction-writes.ts';
import * as transactions from './transactions.ts';
import * as vaultWrites from './vault-writes.ts';
import * as vaults from './vaults.ts';
import * as sso from './sso.ts';
import * as webhooks from './webhooks.ts';

/**
 * Every declared endpoint, by capability: what the server's OpenAPI document
 * lists, what the route tests hold the app to and what the authorization
 * matrix calls. The SPA imports the capability modules themselves, never
 * this index, so its bundle holds only the declarations its pages call.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  ...Object.values(transactions),
  ...Object.values(transactionWrites),
  ...Object.values(bankAccounts),
  ...Object.values(bankAccountWrites),
  ...Object.values(approvals),
  ...Object.values(approvalCounts),
  ...Object.values(approvalCards),
  ...Object.values(approvalCardPreview),
  ...Object.values(approvalSignatures),
  ...Object.values(approvables),
  ...Object.values(ramps),
  ...Object.values(rampWrites),
  ...Object.values(reference),
  ...Object.values(subOrgWrites),
  ...Object.values(contacts),
  ...Object.values(contactWrites),
  ...Object.values(vaults),
  ...Object.values(notifications),
  ...Object.values(vaultWrites),
  ...Object.values(operations),
  ...Object.values(activity),
  ...Object.values(overview),
  ...Object.values(ledger),
  ...Object.values(ledgerPeriods),
  ...Object.values(staff),
  ...Object.values(account),
  ...Object.values(consoleEndpoints),
  ...Object.values(live),
  ...Object.values(policies),
  ...Object.values(policyWrites),
  ...Object.values(session),
  ...Object.values(webhooks),
  ...Object.values(sso),
  ...Object.values(apiUsers),
  ...Object.values(sandboxWorld),
  ...Object.values(paymentRuns),
  ...Object.values(paymentRunSchedules),
];
