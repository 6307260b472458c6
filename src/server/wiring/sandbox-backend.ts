import { operationsSandbox } from '../capabilities/operations/sandbox/index.ts';
import { overviewSandbox } from '../capabilities/overview/sandbox/index.ts';
import { asc } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cachedRead } from '../db/read-cache.ts';
import { organizations } from '../db/schema/sandbox.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import { createApiClientDirectory } from '../custody/sandbox/api-users.store.ts';
import { approvalsSandbox } from '../capabilities/approvals/sandbox/index.ts';
import { applyBankAccountDecision } from '../capabilities/bank-accounts/sandbox/decision.ts';
import { applyContactDecision } from '../capabilities/contacts/sandbox/decision.ts';
import { bankAccountsSandbox } from '../capabilities/bank-accounts/sandbox/index.ts';
import { contactsSandbox } from '../capabilities/contacts/sandbox/index.ts';
import { ledgerPeriodsSandbox } from '../capabilities/ledger/periods/sandbox.ts';
import { ledgerSandbox } from '../capabilities/ledger/sandbox/index.ts';
import { policiesSandbox } from '../capabilities/policies/sandbox/index.ts';
import { rampsSandbox } from '../capabilities/ramps/sandbox/index.ts';
import { activitySandbox } from '../capabilities/activity/sandbox/index.ts';
import { referenceSandbox } from '../capabilities/reference/sandbox/index.ts';
import { sandboxWorldSandbox } from '../capabilities/sandbox-world/sandbox/index.ts';
import { transactionsSandbox } from '../capabilities/transactions/sandbox/index.ts';
import { vaultsSandbox } from '../capabilities/vaults/sandbox/index.ts';
import { webhooksSandbox } from '../capabilities/webhooks/sandbox/index.ts';
import type { TargetPolicy } from '../capabilities/webhooks/targets.ts';
import { createTransactionEngine } from '../custody/sandbox/engine/api.ts';
import { createFeeSurges } from '../custody/sandbox/fee-surges.ts';
import type { SandboxDeps } from '../custody/sandbox/sandbox-deps.ts';
import { systemClock, type Clock } from '../clock.ts';
import { DEFAULT_RATE_TOLERANCE_PERCENT } from '../capabilities/ramps/sandbox/ramp-requote.ts';

export interface SandboxBackendOptions {
  db: Database;
  /**
   * The organization a caller without one of its own acts in. Defaults to the
   * oldest organization, which on a seeded sandbox is the only one.
   */
  orgId?: string;
  /** The engine's time (fees, timestamps); tests pass a TestClock. */
  clock?: Clock;
  /** The lifecycle simulator's SANDBOX_TIME_SCALE (1 unless given), for the usual times it keeps. */
  timeScale?: number;
  /** Where webhook endpoints may point (WEBHOOK_ALLOW_PRIVATE_TARGETS); private addresses refused unless given. */
  webhookTargets?: TargetPolicy;
  /** A webhook attempt's deadline (WEBHOOK_TIMEOUT_MS), for a test event sent on request. */
  webhookTimeoutMs?: number;
  /**
   * How far (percent) a ramp's re-quoted rate may move from the one a person
   * accepted before an approver must accept it (RAMP_RATE_TOLERANCE_PERCENT).
   */
  rampRateTolerancePercent?: string;
}

/**
 * The embedded custody service: every read and write over the sandbox's
 * tables. Each capability answers its own port (`capabilities/<c>/sandbox/`)
 * over the deps made here once (sandbox-deps.ts).
 */
export function createSandboxBackend(options: SandboxBackendOptions): CustodyBackend {
  const { db } = options;
  // One clock for everything the sandbox stamps: transactions, fees, bank accounts, decisions.
  const clock = options.clock ?? systemClock;
  const feeSurges = createFeeSurges();
  const engine = createTransactionEngine(db, clock, feeSurges);
  let defaultOrgId = options.orgId;

  async function orgIdFor(ctx: CustodyContext): Promise<string | null> {
    if (ctx.actor?.orgId) return ctx.actor.orgId;
    if (!defaultOrgId) {
      // Not cached while absent: the seed may create the organization later.
      const [org] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .orderBy(asc(organizations.createdAt), asc(organizations.id))
        .limit(1);
      defaultOrgId = org?.id;
    }
    return defaultOrgId ?? null;
  }

  const cachedList: SandboxDeps['cachedList'] = async (ctx, kind, query, tables, load) => {
    const orgId = await orgIdFor(ctx);
    return cachedRead(`${kind}:${orgId}:${JSON.stringify(query)}`, () => load(orgId), tables);
  };

  const deps: SandboxDeps = {
    db,
    clock,
    timeScale: options.timeScale ?? 1,
    engine,
    feeSurges,
    orgIdFor,
    cachedList,
  };
  const reference = referenceSandbox(deps);
  const transactions = transactionsSandbox(deps);
  return {
    kind: 'sandbox',
    apiClients: createApiClientDirectory(db),
    ...contactsSandbox(deps),
    ...activitySandbox(deps),
    ...vaultsSandbox({ ...deps, reference }),
    ...operationsSandbox(deps),
    ...ledgerSandbox(deps),
    ...overviewSandbox(deps),
    ...ledgerPeriodsSandbox(deps),
    ...transactions,
    ...bankAccountsSandbox(deps),
    ...approvalsSandbox(deps, {
      BANK_ACCOUNT: applyBankAccountDecision,
      CONTACT: applyContactDecision,
    }),
    ...reference,
    ...policiesSandbox(deps),
    ...rampsSandbox({
      ...deps,
      rateTolerancePercent: options.rampRateTolerancePercent ?? DEFAULT_RATE_TOLERANCE_PERCENT,
    }),
    ...sandboxWorldSandbox({ ...deps, reference, transactions }),
    ...webhooksSandbox(
      deps,
      options.webhookTargets ?? { allowPrivate: false },
      options.webhookTimeoutMs,
    ),
  };
}
