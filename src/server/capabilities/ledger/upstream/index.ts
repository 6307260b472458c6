import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { LedgerPort } from '../port.ts';

/**
 * The custody API keeps no balance history: it answers balances as they are
 * now and transactions as they end, never what a vault held on a past day.
 * The ledger is the sandbox's for now (docs/upstream.md says what an upstream
 * ledger could and could not be built from).
 */
export function ledgerUpstream(): LedgerPort {
  const refuse = () =>
    Promise.reject(
      new ApiError(
        409,
        ERROR_CODES.sandboxOnly,
        'The ledger is kept by the sandbox: the custody service this console acts on gives no balance history',
      ),
    );
  return { ledgerHistory: refuse, ledgerStatement: refuse };
}
