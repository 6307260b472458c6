import type { CustodyContext } from '../../../custody/call-context.ts';

/**
 * What closing periods and the journal need of the custody backend: the
 * organization whose ledger it is, and the ledger's time now (the
 * sandbox's clock, which stamps the movements: a month has ended by it).
 * Only the sandbox keeps a ledger, so only it answers; upstream leaves it
 * out and the routes refuse (409 SANDBOX_ONLY).
 */
export interface LedgerPeriodsPort {
  ledgerBooks?(ctx: CustodyContext): Promise<{ orgId: string; now: Date }>;
}

declare module '../../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends LedgerPeriodsPort {}
}
