import { endpoint } from '../endpoint.ts';
import {
  LedgerHistoryQuery,
  LedgerHistoryResponse,
  LedgerStatementQuery,
  LedgerStatementResponse,
} from '../ledger.ts';

/**
 * The treasury ledger (server/capabilities/ledger/): balances over time and
 * statements that reconcile, built from the movements the sandbox records
 * as balances move; held to the member's sub-organizations (404 outside).
 */

export const ledgerHistory = endpoint({
  method: 'GET',
  path: '/api/console/ledger/history/',
  summary:
    'Daily closing balances (units and USD at that day’s price) per asset and chain over 7, 30, 90 or 365 days, for a vault, a sub-organization or the organization.',
  action: 'read the ledger',
  permission: 'read',
  audit: false,
  resource: 'vault',
  query: LedgerHistoryQuery,
  answer: LedgerHistoryResponse,
});

export const ledgerStatement = endpoint({
  method: 'GET',
  path: '/api/console/ledger/statement/',
  summary:
    'A vault’s or sub-organization’s statement for a period: per asset the opening balance, amounts, fees and closing balance, and every movement oldest first, paged.',
  action: 'read the ledger',
  permission: 'read',
  audit: false,
  resource: 'vault',
  query: LedgerStatementQuery,
  paged: true,
  answer: LedgerStatementResponse,
});
