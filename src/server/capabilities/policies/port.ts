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
  /**
   * The known asset whose contract on `blockChain` is `contract`, with its
   * decimals, or null: a contract call to it is valued by the token amount it
   * moves (call-value.ts). `vaultId` names the vault that calls, whose
   * balances may name the contract (upstream mode reads them there).
   */
  tokenAt?(
    ctx: CustodyContext,
    blockChain: string,
    contract: string,
    vaultId?: string,
  ): Promise<{ asset: string; decimals: number } | null>;
  /**
   * The USD value of what left the vault since `since`, declined and failed
   * transfers excluded; null when it cannot be told (a transaction in the
   * window without a value).
   */
  vaultOutflowUsd?(ctx: CustodyContext, vaultId: string, since: Date): Promise<string | null>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends PoliciesPort {}
}
