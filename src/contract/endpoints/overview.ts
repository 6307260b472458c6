import { endpoint } from '../endpoint.ts';
import {
  OverviewQuery,
  OverviewResponse,
  VaultHoldingsQuery,
  VaultHoldingsResponse,
} from '../overview.ts';

/**
 * The treasury at a glance (the console's home page) and its vaults valued
 * (the Vaults page): the console's own reads, composed from the custody
 * API's vaults, detailed balances, transactions and the approvals inbox,
 * held to the member's sub-organizations as each of those is.
 */

export const overview = endpoint({
  method: 'GET',
  path: '/api/console/overview/',
  summary:
    'Holdings in USD (by asset, chain and vault), what waits on the member, transactions in flight, and the last day’s and 30 days’ completed flows.',
  action: 'read the overview',
  permission: 'read',
  audit: false,
  query: OverviewQuery,
  answer: OverviewResponse,
});

export const vaultHoldings = endpoint({
  method: 'GET',
  path: '/api/console/vaults/',
  summary:
    'Every vault in scope with its chains and what it holds, per asset and chain, valued in USD.',
  action: 'read vaults',
  permission: 'read',
  audit: false,
  query: VaultHoldingsQuery,
  answer: VaultHoldingsResponse,
});
