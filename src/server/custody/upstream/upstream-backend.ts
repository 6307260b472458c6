import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { BankAccount, BankAccountListResponse } from '../../../contract/bank-account.ts';
import type { BankAccountCreateRequest } from '../../../contract/bank-account.ts';
import { ERROR_CODES, type ListEnvelope } from '../../../contract/common.ts';
import { paths, toQueryString } from '../../../contract/paths.ts';
import {
  AssetListResponse,
  ContactListResponse,
  type Contact,
  SubOrgListResponse,
  SupportedChainListResponse,
  Vault,
  VaultBalances,
  VaultListResponse,
} from '../../../contract/reference.ts';
import {
  EstimatedFeeResponse,
  Transaction,
  TransactionListResponse,
} from '../../../contract/transaction.ts';
import { parsePrivateKey } from '../../protocol/api-token.ts';
import { systemClock, type Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { ApiError } from '../../../contract/api-error.ts';
import type { CustodyBackend, CustodyContext, ScopeFilter } from '../backend.ts';
import type { Page, PageRequest } from '../../../contract/common.ts';
import { bankAccountFingerprinter } from '../../capabilities/bank-accounts/upstream/fingerprint.ts';
import {
  forgetBankAccountIntent,
  forgetTransactionIntent,
  recordBankAccountIntent,
  recordCreated,
  recordTransactionIntent,
  resolveBankAccountIntent,
} from './creators.store.ts';
import { filteredPage } from './filtered-pages.ts';
import { upstreamApprovalOperations } from '../../capabilities/approvals/upstream/approvals.ts';
import { contactsUpstream } from '../../capabilities/contacts/upstream/index.ts';
import { vaultsUpstream } from '../../capabilities/vaults/upstream/index.ts';
import { createUpstreamClient, UpstreamFailure, type UpstreamRequest } from './upstream-client.ts';

/**
 * The custody API of the organization, reached over signed HTTP
 * (upstream-client.ts). The console's own rules stay the console's: roles
 * and scope are checked before anything reaches this backend (session-auth,
 * scoped-backend), four-eyes here against the creators the console records
 * in its own database, since upstream sees one API user for every member.
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
}

type Query = Record<string, string | number | null | undefined>;

/** Contacts looked through for one id: 5,000, far beyond an organization's address book. */
const MAX_CONTACT_PAGES = 50;

export function createUpstreamBackend(options: UpstreamBackendOptions): CustodyBackend {
  const { db } = options;
  const clock = options.clock ?? systemClock;
  const privateKey = parsePrivateKey(options.privateKey);
  const fingerprint = bankAccountFingerprinter(privateKey);
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

  /** One call, its answer checked against the contract; a shape we cannot read is a 502. */
  async function call<S extends z.core.$ZodType>(
    ctx: CustodyContext,
    schema: S,
    request: Omit<UpstreamRequest, 'requestId'>,
  ): Promise<z.output<S>> {
    const answer = await client.send({ ...request, requestId: ctx.requestId });
    const parsed = z.safeParse(schema, answer);
    if (!parsed.success) {
      throw new UpstreamFailure(
        'unavailable',
        `The custody API at ${client.host} answered ${request.method} ${request.path.split('?')[0]} with an unexpected shape`,
        ctx.requestId,
      );
    }
    return parsed.data;
  }

  const read = <S extends z.core.$ZodType>(ctx: CustodyContext, schema: S, path: string) =>
    call(ctx, schema, { method: 'GET', path, retry: true });

  async function listPage<T>(
    ctx: CustodyContext,
    schema: z.core.$ZodType<ListEnvelope<T>>,
    path: string,
    query: Query,
    page: PageRequest,
  ): Promise<Page<T>> {
    const body = await read(
      ctx,
      schema,
      `${path}${toQueryString({ ...query, limit: page.limit, cursor: page.cursor })}`,
    );
    const nextCursor = body.nextCursor ?? null;
    return { results: body.results, nextCursor, hasNext: body.hasNext ?? nextCursor !== null };
  }

  /**
   * A list held to sub-orgs: upstream filters one sub-org itself where the
   * endpoint takes `subOrgId`; several, or endpoints without the filter, are
   * filtered here page by page (filtered-pages.ts).
   */
  async function scopedList<T extends { subOrgId?: string | null | undefined }>(
    ctx: CustodyContext,
    schema: z.core.$ZodType<ListEnvelope<T>>,
    path: string,
    q: PageRequest & ScopeFilter,
    upstreamFiltersSubOrg: boolean,
  ): Promise<Page<T>> {
    const { limit, cursor, subOrgIds, subOrgId, ...rest } = q;
    const filters = rest as Query;
    const wanted = subOrgIds ?? (subOrgId && !upstreamFiltersSubOrg ? [subOrgId] : undefined);
    if (!wanted) {
      return listPage(ctx, schema, path, { ...filters, subOrgId }, { limit, cursor });
    }
    return filteredPage(limit, cursor, wanted, (n, c) =>
      listPage(ctx, schema, path, filters, { limit: n, cursor: c }),
    );
  }

  function staffId(ctx: CustodyContext): string | undefined {
    return ctx.actor?.type === 'STAFF' ? ctx.actor.id : undefined;
  }

  /**
   * A create whose answer was lost may still have happened upstream: look it
   * up before anyone tries again, and answer it if it exists. When it does
   * not, the 502/504 says that sending again is safe (the externalId stops a
   * second create either way).
   */
  async function unknownOutcome<T extends { id?: string | undefined }>(
    ctx: CustodyContext,
    failure: UpstreamFailure,
    what: string,
    find: () => Promise<T | undefined>,
  ): Promise<T> {
    let found: T | undefined;
    try {
      found = await find();
    } catch {
      throw new UpstreamFailure(
        failure.reason,
        `${failure.message.replace(/ \(request id .*\)$/, '')}; whether the ${what} was created is not known yet. Look it up before sending it again`,
        ctx.requestId,
      );
    }
    if (found) {
      options.logger?.info(
        { reqId: ctx.requestId, id: found.id },
        `lost ${what} answer reconciled`,
      );
      return found;
    }
    throw new UpstreamFailure(
      failure.reason,
      `${failure.message.replace(/ \(request id .*\)$/, '')}; no such ${what} exists upstream, so sending it again is safe`,
      ctx.requestId,
    );
  }

  const approvals = upstreamApprovalOperations({
    db,
    clock,
    client,
    privateKey,
    read,
    call,
    getTransaction,
    getBankAccount,
    fingerprint,
  });

  /**
   * The custody API description has no GET of one contact (only the SDKs
   * hint at one), so the contact is found in its list, a hundred at a time.
   */
  async function getContact(ctx: CustodyContext, id: string): Promise<Contact> {
    let cursor: string | undefined;
    for (let call = 0; call < MAX_CONTACT_PAGES; call += 1) {
      const page = await listPage(
        ctx,
        ContactListResponse,
        paths.contacts(),
        {},
        { limit: 100, cursor },
      );
      const found = page.results.find((contact) => contact.id === id);
      if (found) return found;
      if (!page.hasNext || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
    throw new ApiError(404, ERROR_CODES.notFound, `No contact with id "${id}"`);
  }

  async function getTransaction(ctx: CustodyContext, id: string): Promise<Transaction> {
    return read(ctx, Transaction, paths.transaction(id));
  }

  async function getBankAccount(ctx: CustodyContext, id: string): Promise<BankAccount> {
    return read(ctx, BankAccount, paths.bankAccount(id));
  }

  return {
    kind: 'upstream',
    upstreamHost: client.host,
    ...contactsUpstream({ call }),
    ...vaultsUpstream({ call }),
    checkReady: async () => {
      await call({}, SupportedChainListResponse, {
        method: 'GET',
        path: paths.supportedChains(),
        retry: false,
      });
    },

    listTransactions: (ctx, q) =>
      scopedList(ctx, TransactionListResponse, paths.transactions(), q, true),
    getTransaction,
    async createTransaction(ctx, body) {
      // Every create carries an externalId, so a lost answer can always be looked up.
      const externalId = body.externalId ?? `console-${randomUUID()}`;
      const sent = { ...body, externalId };
      const member = staffId(ctx);
      if (member) await recordTransactionIntent(db, externalId, member, clock.now());
      let created: Transaction;
      try {
        created = await call(ctx, Transaction, {
          method: 'POST',
          path: paths.transactions(),
          body: sent,
          retry: false,
        });
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) {
          // Refused outright (a 4xx): nothing was created under this externalId by this call.
          if (member && error instanceof ApiError) {
            await forgetTransactionIntent(db, externalId, member);
          }
          throw error;
        }
        created = await unknownOutcome(ctx, error, 'transaction', async () => {
          const page = await listPage(
            ctx,
            TransactionListResponse,
            paths.transactions(),
            { externalId },
            { limit: 1 },
          );
          return page.results[0];
        });
      }
      if (member && created.id) {
        await recordCreated(db, {
          entityType: 'TRANSACTION',
          entityId: created.id,
          staffId: member,
          externalId,
          at: clock.now(),
        });
      }
      return created;
    },
    async replaceTransaction(ctx, body) {
      // Never retried: upstream refuses a second replacement (REPLACEMENT_EXISTS) anyway.
      const created = await call(ctx, Transaction, {
        method: 'POST',
        path: paths.replaceTransaction(),
        body,
        retry: false,
      });
      const member = staffId(ctx);
      if (member && created.id) {
        await recordCreated(db, {
          entityType: 'TRANSACTION',
          entityId: created.id,
          staffId: member,
          externalId: created.externalId,
          at: clock.now(),
        });
      }
      return created;
    },
    // An estimate changes nothing upstream: safe to retry like a read.
    estimateFee: (ctx, body) =>
      call(ctx, EstimatedFeeResponse, {
        method: 'POST',
        path: paths.estimateFee(),
        body,
        retry: true,
      }),

    listBankAccounts: (ctx, q) =>
      scopedList(ctx, BankAccountListResponse, paths.bankAccounts(), q, true),
    getBankAccount,
    async createBankAccount(ctx, input) {
      const sentAt = clock.now().getTime();
      // Recorded before sending, as a transaction is by its externalId: an account whose
      // answer is lost or late still has its possible creator, whom four-eyes refuses.
      const member = staffId(ctx);
      const intent = member
        ? await recordBankAccountIntent(db, fingerprint(input), randomUUID(), member, clock.now())
        : null;
      let created: BankAccount;
      try {
        created = await call(ctx, BankAccount, {
          method: 'POST',
          path: paths.bankAccounts(),
          body: input,
          retry: false,
        });
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) {
          // Refused outright (a 4xx): this attempt made nothing.
          if (intent && error instanceof ApiError) await forgetBankAccountIntent(db, intent);
          throw error;
        }
        created = await unknownOutcome(ctx, error, 'bank account', () =>
          findBankAccount(ctx, input, sentAt),
        );
      }
      if (intent && created.id) await resolveBankAccountIntent(db, intent, created.id);
      return created;
    },

    getApprovalMessage: approvals.getApprovalMessage,
    decideApproval: approvals.decideApproval,
    approvalEntityId: approvals.approvalEntityId,

    listVaults: (ctx, q) => scopedList(ctx, VaultListResponse, paths.vaults(), q, false),
    getVault: (ctx, id) => read(ctx, Vault, paths.vault(id)),
    getVaultBalances: (ctx, id) => read(ctx, VaultBalances, paths.vaultBalances(id)),
    listContacts: (ctx, q) => scopedList(ctx, ContactListResponse, paths.contacts(), q, false),
    getContact,
    listAssets: (ctx) => read(ctx, AssetListResponse, paths.assets()),
    listSupportedChains: (ctx) => read(ctx, SupportedChainListResponse, paths.supportedChains()),
    listSubOrgs: (ctx, q) => listPage(ctx, SubOrgListResponse, paths.subOrgs(), {}, q),
  };

  /**
   * Bank accounts carry no externalId: the one the lost create made is the
   * newest PENDING account with the same rail, holder and number (and
   * clientBankAccountId when one was given) created since it was sent.
   */
  async function findBankAccount(
    ctx: CustodyContext,
    input: BankAccountCreateRequest,
    sentAt: number,
  ): Promise<BankAccount | undefined> {
    const page = await listPage(
      ctx,
      BankAccountListResponse,
      paths.bankAccounts(),
      { status: 'PENDING' },
      { limit: 100 },
    );
    // Clocks differ: a minute's slack either way.
    const since = sentAt - 60_000;
    return page.results.find(
      (account) =>
        account.paymentMethod === input.paymentMethod &&
        account.accountName === input.accountName &&
        account.accountNumber === input.accountNumber &&
        (!input.clientBankAccountId || account.clientBankAccountId === input.clientBankAccountId) &&
        (!account.createdAt || Date.parse(account.createdAt) >= since),
    );
  }
}
