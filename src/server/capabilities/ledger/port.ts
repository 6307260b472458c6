import type { PageRequest } from '#contract/common.ts';
import type { LedgerHistoryResponse, LedgerStatementResponse } from '#contract/ledger.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/** Whose ledger: one vault, a sub-organization's vaults (one or several), or the organization's. */
export interface LedgerFilter {
  vaultId?: string | undefined;
  subOrgId?: string | undefined;
  subOrgIds?: string[] | undefined;
}

/**
 * The treasury ledger's reads. The sandbox answers them from the movements
 * it records as balances move; upstream, the console answers them from the
 * history it rebuilds from the custody API's transactions and balances.
 */
export interface LedgerPort {
  ledgerHistory(
    ctx: CustodyContext,
    query: LedgerFilter & { days: number },
  ): Promise<LedgerHistoryResponse>;
  ledgerStatement(
    ctx: CustodyContext,
    query: LedgerFilter & { from: Date; to: Date; page: PageRequest },
  ): Promise<LedgerStatementResponse>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends LedgerPort {}
}
