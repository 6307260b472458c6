import { chainInfo } from '#contract/chains.ts';
import type {
  CreateTransactionRequest,
  EstimatedFeeResponse,
  EstimateFeeRequest,
  ReplaceTransactionRequest,
  Transaction,
} from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import type { CustodyActor } from '../../backend.ts';
import { estimateFees } from '../fee-model.ts';
import type { FeeSurges } from '../fee-surges.ts';
import { toWireTransaction } from '../mappers.ts';
import type { Clock } from '../../../clock.ts';
import { createTransaction } from './create.ts';
import { noOrganization } from './problems.ts';
import { replaceTransaction } from './replace.ts';
import { resolveCreate } from './validate-create.ts';

/** The engine's writes as the sandbox backend exposes them (endpoints 6–8). */
export interface TransactionEngine {
  create(
    orgId: string | null,
    actor: CustodyActor | undefined,
    body: CreateTransactionRequest,
  ): Promise<Transaction>;
  replace(
    orgId: string | null,
    actor: CustodyActor | undefined,
    body: ReplaceTransactionRequest,
  ): Promise<Transaction>;
  estimateFee(orgId: string | null, body: EstimateFeeRequest): Promise<EstimatedFeeResponse>;
}

function requireOrg(orgId: string | null): string {
  if (!orgId) throw noOrganization();
  return orgId;
}

export function createTransactionEngine(
  db: Database,
  clock: Clock,
  /** Surges set by hand for a sub-organization's items: its estimates read them. */
  feeSurges?: FeeSurges,
): TransactionEngine {
  return {
    async create(orgId, actor, body) {
      const row = await createTransaction(db, {
        orgId: requireOrg(orgId),
        actor,
        body,
        now: clock.now(),
      });
      return toWireTransaction(row);
    },
    async replace(orgId, actor, body) {
      const row = await replaceTransaction(db, {
        orgId: requireOrg(orgId),
        actor,
        transactionId: body.transactionId,
        now: clock.now(),
      });
      return toWireTransaction(row);
    },
    async estimateFee(orgId, body) {
      // The same checks as a create: an estimate for a transaction that could not be made is no help.
      const org = requireOrg(orgId);
      const resolved = await resolveCreate(db, org, body);
      const now = clock.now();
      // What signing charges (steps.ts): a contract call pays as a native transfer.
      return estimateFees({
        blockChain: resolved.blockChain,
        asset: resolved.asset ?? chainInfo(resolved.blockChain)?.nativeAsset ?? '',
        amount: resolved.amount ?? '0',
        now,
        surge: feeSurges?.surgeFor(org, resolved.subOrgId, resolved.blockChain, now),
      });
    },
  };
}
