import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { LedgerPeriodsPort } from './port.ts';

/** The sandbox's organization, whose ledger periods close and journal exports, and its clock. */
export function ledgerPeriodsSandbox({
  orgIdFor,
  clock,
}: Pick<SandboxDeps, 'orgIdFor' | 'clock'>): Required<LedgerPeriodsPort> {
  return {
    async ledgerBooks(ctx) {
      const orgId = await orgIdFor(ctx);
      if (!orgId) throw new ApiError(404, ERROR_CODES.notFound, 'No organization yet');
      return { orgId, now: clock.now() };
    },
  };
}
