import type { Logger } from 'pino';
import { paths } from '#contract/paths.ts';
import { SupportedChainListResponse } from '#contract/reference.ts';
import { parsePrivateKey } from '../protocol/api-token.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { approvalsUpstream } from '../capabilities/approvals/upstream/index.ts';
import { bankAccountsUpstream } from '../capabilities/bank-accounts/upstream/index.ts';
import { contactsUpstream } from '../capabilities/contacts/upstream/index.ts';
import { policiesUpstream } from '../capabilities/policies/upstream/index.ts';
import { rampsUpstream } from '../capabilities/ramps/upstream/index.ts';
import { activityUpstream } from '../capabilities/activity/upstream/index.ts';
import { referenceUpstream } from '../capabilities/reference/upstream/index.ts';
import { transactionsUpstream } from '../capabilities/transactions/upstream/index.ts';
import { operationsUpstream } from '../capabilities/operations/upstream/index.ts';
import { ledgerUpstream } from '../capabilities/ledger/upstream/index.ts';
import { vaultsUpstream } from '../capabilities/vaults/upstream/index.ts';
import { bankAccountFingerprinter } from '../custody/upstream/bank-account-fingerprint.ts';
import { createUpstreamClient } from '../custody/upstream/upstream-client.ts';
import { upstreamDeps } from '../custody/upstream/upstream-deps.ts';

/**
 * The custody API of the organization, reached over signed HTTP
 * (upstream-client.ts). The console's own rules stay the console's: roles
 * and scope are checked before anything reaches this backend (session-auth,
 * scoped-backend), four-eyes here against the creators the console records
 * in its own database, since upstream sees one API user for every member.
 * Each capability answers its own port (`capabilities/<c>/upstream/`) over
 * the calls made here once (upstream-deps.ts).
 */

export interface UpstreamBackendOptions {
  baseUrl: string;
  apiKey: string;
  /** PKCS#8 DER hex or PEM; parsed once, kept in memory, never logged. */
  privateKey: string;
  timeoutMs: number;
  /** The console's database: creator records and approval ids. */
  db: Database;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Tests shorten the back-off between read attempts. */
  backoffMs?: number;
  /** Signs tokens and dates a create whose answer was lost (clock.ts). */
  clock?: Clock;
  /** How old the ledger's last read of upstream may be before a ledger read reads it again (60 s). */
  ledgerSyncEveryMs?: number;
  /** Transactions the ledger reads a page (100); tests page through a few. */
  ledgerPageSize?: number;
}

export function createUpstreamBackend(options: UpstreamBackendOptions): CustodyBackend {
  const { db } = options;
  const clock = options.clock ?? systemClock;
  const privateKey = parsePrivateKey(options.privateKey);
  const client = createUpstreamClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    privateKey,
    timeoutMs: options.timeoutMs,
    logger: options.logger,
    clock,
    ...(options.backoffMs === undefined ? {} : { backoffMs: options.backoffMs }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const fingerprint = bankAccountFingerprinter(privateKey);
  const deps = upstreamDeps({ db, clock, client, privateKey, fingerprint }, options.logger);

  const transactions = transactionsUpstream(deps);
  const bankAccounts = bankAccountsUpstream(deps);
  return {
    kind: 'upstream',
    upstreamHost: client.host,
    checkReady: async () => {
      await deps.call({}, SupportedChainListResponse, {
        method: 'GET',
        path: paths.supportedChains(),
        retry: false,
      });
    },
    ...contactsUpstream(deps),
    ...activityUpstream(deps),
    ...vaultsUpstream(deps),
    ...operationsUpstream(deps),
    ...ledgerUpstream(deps, {
      ...(options.ledgerSyncEveryMs === undefined
        ? {}
        : { syncEveryMs: options.ledgerSyncEveryMs }),
      ...(options.ledgerPageSize === undefined ? {} : { pageSize: options.ledgerPageSize }),
    }),
    ...transactions,
    ...bankAccounts,
    // Four-eyes reads the entity an approval is about through its own port.
    ...approvalsUpstream({ ...deps, transactions, bankAccounts }),
    ...referenceUpstream(deps),
    ...rampsUpstream({ ...deps, listTransactions: transactions.listTransactions }),
    ...policiesUpstream({ ...deps, listTransactions: transactions.listTransactions }),
  };
}
