import type { Endpoint } from '../endpoint.ts';
import * as account from './account.ts';
import * as bankAccounts from './bank-accounts.ts';
import * as staff from './staff.ts';
import * as transactions from './transactions.ts';

/**
 * Every declared endpoint, by capability: what the server's OpenAPI document
 * lists and what the route tests hold the app to. The SPA imports the
 * capability modules themselves, never this index, so its bundle holds only
 * the declarations its pages call.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  ...Object.values(account),
  ...Object.values(bankAccounts),
  ...Object.values(staff),
  ...Object.values(transactions),
];
