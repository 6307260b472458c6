import type { SubOrg } from '#contract/reference.ts';
import type {
  SandboxDepositRequest,
  SandboxFeeSurge,
  SandboxFeeSurgeRequest,
  SandboxStakingEpochs,
  SandboxStakingEpochsRequest,
  SandboxSubOrgRequest,
} from '#contract/sandbox-world.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * Making a world to work in, which only the sandbox can: a real custody
 * service makes sub-organizations in its dashboard, and money arrives in a
 * vault from the chain. Upstream has none of it, and the console's routes
 * say so.
 */
export interface SandboxWorldAdmin {
  createSubOrg(ctx: CustodyContext, body: SandboxSubOrgRequest): Promise<SubOrg>;
  /**
   * Money arriving in the vault from outside: a completed incoming transfer,
   * whose balance changes credit the vault as every completed transfer's do,
   * so the balances still equal what the recorded movements add up to.
   */
  deposit(ctx: CustodyContext, vaultId: string, body: SandboxDepositRequest): Promise<Transaction>;
  /**
   * The fee market of one chain multiplied for the items of one
   * sub-organization until a time: its fee estimates (and so its approval
   * cards' fee ceilings) read it; no other sub-organization's move.
   */
  surgeFees(
    ctx: CustodyContext,
    subOrgId: string,
    body: SandboxFeeSurgeRequest,
  ): Promise<SandboxFeeSurge>;
  /**
   * A vault's stake that has earned nothing yet moved `epochs` epochs into
   * the past, and the epochs that thereby ended paid at once (a reward seen
   * without waiting for an epoch to end).
   */
  passStakingEpochs(
    ctx: CustodyContext,
    vaultId: string,
    body: SandboxStakingEpochsRequest,
  ): Promise<SandboxStakingEpochs>;
}

export interface SandboxWorldPort {
  readonly sandboxWorld?: SandboxWorldAdmin;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends SandboxWorldPort {}
}
