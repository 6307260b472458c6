import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * What the approval policies ask the custody backend, beyond the other
 * capabilities' reads: an amount's value in USD and a vault's recent outflow.
 * Optional: a backend that cannot tell answers nothing, and the rules that
 * need the figure then match (fail closed: contract/policies.ts).
 */
export interface PoliciesPort {
  /**
   * `amount` of `asset` on `blockChain` in USD, or null when it has no price.
   * `vaultId` names the vault that pays, whose balances may carry the price
   * (upstream mode reads its prices there).
   */
  usdValue?(
    ctx: CustodyContext,
    asset: string,
    blockChain: string,
    amount: string,
    vaultId?: string,
  ): Promise<string | null>;
  /** The USD value of what left the vault since `since`, declined and failed transfers excluded. */
  vaultOutflowUsd?(ctx: CustodyContext, vaultId: string, since: Date): Promise<string | null>;
}
