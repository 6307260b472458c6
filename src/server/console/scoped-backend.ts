import { ERROR_CODES } from '../../contract/common.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import type { Page } from '../../contract/common.ts';
import { ApiError } from '../../contract/api-error.ts';

/**
 * Holds a staff member to their sub-organizations (ctx.scope; null = all).
 * Wraps whichever backend is configured, so sandbox and upstream behave alike:
 * - a list asked for a sub-org outside the scope is 404, as if it did not exist;
 * - a list asked for no sub-org is narrowed to the scope (one sub-org: the
 *   `subOrgId` filter; several: `subOrgIds`, an IN filter the sandbox stores
 *   honour), and rows outside the scope are dropped as a last line of defence;
 * - a get of anything outside the scope is 404;
 * - a create, fee estimate or replacement may name (as source, destination,
 *   `vaultId` or `feePayer`) only vaults and contacts of the member's own
 *   sub-orgs: anything else is 404, as if it did not exist. Organization-level
 *   vaults and contacts (no sub-org) are out of a restricted member's scope,
 *   just as they are missing from the lists the member sees (README, "Staff
 *   sign-in"). A replacement pays whom its original pays, so the original's
 *   destination is checked too.
 * API clients carry no scope and pass straight through.
 */

type Scoped = { subOrgId?: string | undefined; subOrgIds?: string[] | undefined };

function allowedIds(ctx: CustodyContext): string[] | null {
  return ctx.scope?.subOrgIds ?? null;
}

function notFound(resource: string, id: string): ApiError {
  return new ApiError(404, ERROR_CODES.notFound, `No ${resource} with id "${id}"`);
}

export function inScope(ctx: CustodyContext, subOrgId: string | null | undefined): boolean {
  const ids = allowedIds(ctx);
  return !ids || (!!subOrgId && ids.includes(subOrgId));
}

/** The list query narrowed to the caller's scope, or 404 for a sub-org outside it. */
function scopeListQuery<Q extends Scoped>(ctx: CustodyContext, query: Q): Q {
  const ids = allowedIds(ctx);
  if (!ids) return query;
  if (query.subOrgId) {
    if (!ids.includes(query.subOrgId)) throw notFound('sub-organization', query.subOrgId);
    return query;
  }
  if (ids.length === 1) return { ...query, subOrgId: ids[0] };
  return { ...query, subOrgIds: ids };
}

function keepInScope<T extends { subOrgId?: string | null | undefined }>(
  ctx: CustodyContext,
  page: Page<T>,
): Page<T> {
  if (!allowedIds(ctx)) return page;
  // The page itself when nothing falls out (the query was already narrowed): a
  // page the read cache shares keeps its serialized bytes (http/compress-json.ts).
  if (page.results.every((row) => inScope(ctx, row.subOrgId))) return page;
  return { ...page, results: page.results.filter((row) => inScope(ctx, row.subOrgId)) };
}

/**
 * The create's sub-org: a member with exactly one sub-org gets it by default;
 * one outside the scope is 404. Returns the body to pass on.
 */
function scopeCreateBody<B extends { subOrgId?: string | undefined }>(
  ctx: CustodyContext,
  body: B,
): B {
  const ids = allowedIds(ctx);
  if (!ids) return body;
  if (body.subOrgId) {
    if (!ids.includes(body.subOrgId)) throw notFound('sub-organization', body.subOrgId);
    return body;
  }
  return ids.length === 1 ? { ...body, subOrgId: ids[0] } : body;
}

interface PartyRef {
  type?: string | undefined;
  id?: string | undefined;
}

/** The vaults and contacts a create or estimate names: each must be in the member's scope. */
function namedParties(body: object): PartyRef[] {
  const b = body as {
    vaultId?: unknown;
    source?: unknown;
    destination?: unknown;
    feePayer?: unknown;
  };
  const parties: PartyRef[] = [];
  if (typeof b.vaultId === 'string') parties.push({ type: 'VAULT', id: b.vaultId });
  for (const p of [b.source, b.destination])
    if (p && typeof p === 'object') parties.push(p as PartyRef);
  // A fee payer is a vault (Solana and Tron sponsor fees from another vault).
  if (b.feePayer && typeof b.feePayer === 'object') {
    const { id } = b.feePayer as { id?: unknown };
    if (typeof id === 'string') parties.push({ type: 'VAULT', id });
  }
  return parties;
}

function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** An unknown id is the engine's to report, with its own message and field. */
function unlessUnknown<T>(promise: Promise<T>): Promise<T | null> {
  return promise.catch((e: unknown) => {
    if (isNotFound(e)) return null;
    throw e;
  });
}

export function scopedBackend(inner: CustodyBackend): CustodyBackend {
  /** 404 unless every vault or contact the parties name lies in the scope. */
  async function checkParties(ctx: CustodyContext, parties: PartyRef[]): Promise<void> {
    if (!allowedIds(ctx)) return;
    for (const party of parties) {
      if (!party.id) continue;
      if (party.type === 'VAULT') {
        const vault = await unlessUnknown(inner.getVault(ctx, party.id));
        if (vault && !inScope(ctx, vault.subOrgId)) throw notFound('vault', party.id);
      } else if (party.type === 'CONTACT') {
        const contact = await unlessUnknown(inner.getContact(ctx, party.id));
        if (contact && !inScope(ctx, contact.subOrgId)) throw notFound('contact', party.id);
      }
    }
  }

  /** The entity a change request is about: a bank account or a transaction, in scope or 404. */
  async function checkEntity(ctx: CustodyContext, entityId: string): Promise<void> {
    if (!allowedIds(ctx)) return;
    for (const get of [
      inner.getBankAccount,
      inner.getTransaction,
      inner.getVault,
      inner.getContact,
    ]) {
      try {
        const entity = await get(ctx, entityId);
        if (inScope(ctx, entity.subOrgId)) return;
        break;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    throw new ApiError(404, ERROR_CODES.notFound, `No change request for entity "${entityId}"`);
  }

  const checked = <T extends { subOrgId?: string | null | undefined }>(
    ctx: CustodyContext,
    resource: string,
    id: string,
    row: T,
  ): T => {
    if (!inScope(ctx, row.subOrgId)) throw notFound(resource, id);
    return row;
  };
  const pending = inner.pendingApprovals;
  return {
    ...inner,
    listTransactions: async (ctx, q) =>
      keepInScope(ctx, await inner.listTransactions(ctx, scopeListQuery(ctx, q))),
    getTransaction: async (ctx, id) =>
      checked(ctx, 'transaction', id, await inner.getTransaction(ctx, id)),
    createTransaction: async (ctx, body) => {
      await checkParties(ctx, namedParties(body));
      return inner.createTransaction(ctx, body);
    },
    replaceTransaction: async (ctx, body) => {
      if (allowedIds(ctx)) {
        const original = checked(
          ctx,
          'transaction',
          body.transactionId,
          await inner.getTransaction(ctx, body.transactionId),
        );
        await checkParties(ctx, [original.destination ?? {}]);
      }
      return inner.replaceTransaction(ctx, body);
    },
    estimateFee: async (ctx, body) => {
      await checkParties(ctx, namedParties(body));
      return inner.estimateFee(ctx, body);
    },
    createBankAccount: async (ctx, input) =>
      inner.createBankAccount(ctx, scopeCreateBody(ctx, input)),
    decideApproval: async (ctx, approvalId, request) => {
      if (allowedIds(ctx)) {
        const entityId = inner.approvalEntityId
          ? await inner.approvalEntityId(ctx, approvalId)
          : null;
        const noApproval = new ApiError(
          404,
          ERROR_CODES.notFound,
          `No approval with id "${approvalId}"`,
        );
        if (!entityId) throw noApproval;
        await checkEntity(ctx, entityId).catch((error: unknown) => {
          throw isNotFound(error) ? noApproval : error;
        });
      }
      return inner.decideApproval(ctx, approvalId, request);
    },
    getApprovalMessage: async (ctx, entityId) => {
      await checkEntity(ctx, entityId);
      return inner.getApprovalMessage(ctx, entityId);
    },
    listBankAccounts: async (ctx, q) =>
      keepInScope(ctx, await inner.listBankAccounts(ctx, scopeListQuery(ctx, q))),
    // Narrowed like a list (its counts too); items outside the scope are dropped as a last line of defence.
    ...(pending && {
      pendingApprovals: async (ctx, q) => {
        const found = await pending(ctx, scopeListQuery(ctx, q));
        const inside = found.items.filter((item) =>
          inScope(
            ctx,
            item.kind === 'TRANSACTION' ? item.transaction.subOrgId : item.bankAccount.subOrgId,
          ),
        );
        return inside.length === found.items.length ? found : { ...found, items: inside };
      },
    }),
    getBankAccount: async (ctx, id) =>
      checked(ctx, 'bank account', id, await inner.getBankAccount(ctx, id)),
    listVaults: async (ctx, q) =>
      keepInScope(ctx, await inner.listVaults(ctx, scopeListQuery(ctx, q))),
    getVault: async (ctx, id) => checked(ctx, 'vault', id, await inner.getVault(ctx, id)),
    getVaultBalances: async (ctx, id) => {
      checked(ctx, 'vault', id, await inner.getVault(ctx, id));
      return inner.getVaultBalances(ctx, id);
    },
    listContacts: async (ctx, q) =>
      keepInScope(ctx, await inner.listContacts(ctx, scopeListQuery(ctx, q))),
    listSubOrgs: async (ctx, q) => {
      const page = await inner.listSubOrgs(ctx, q);
      const ids = allowedIds(ctx);
      return ids
        ? { ...page, results: page.results.filter((s) => !!s.id && ids.includes(s.id)) }
        : page;
    },
  };
}
