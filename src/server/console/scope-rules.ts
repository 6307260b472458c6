import { ERROR_CODES } from '#contract/common.ts';
import type { Page } from '#contract/common.ts';
import type { Vault } from '#contract/reference.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import { allowedIds, inScope } from '../custody/context.ts';

// The scope test itself lives with the caller's context, so a capability's own store can ask it.
export { allowedIds, inScope };

/**
 * The rules every capability's scope (`capabilities/<c>/scope.ts`, composed by
 * scoped-backend.ts) is built from. A staff member is held to their
 * sub-organizations (ctx.scope; null = all), whichever backend answers:
 * - a list asked for a sub-org outside the scope is 404, as if it did not exist;
 * - a list asked for no sub-org is narrowed to the scope (one sub-org: the
 *   `subOrgId` filter; several: `subOrgIds`, an IN filter the sandbox stores
 *   honour), and rows outside the scope are dropped as a last line of defence;
 * - a get of anything outside the scope is 404;
 * - a write may name (as a party) only vaults and contacts of the member's own
 *   sub-orgs: anything else is 404, as if it did not exist. Organization-level
 *   vaults and contacts (no sub-org) are out of a restricted member's scope,
 *   just as they are missing from the lists the member sees (docs/security.md,
 *   "Sub-organization scope");
 * - an EXTERNAL_ADDRESS party that is the address of one of the
 *   organization's vaults outside the scope (on any chain) is refused as that
 *   vault named by id would be: it would move funds out of the scope in
 *   disguise;
 * - what is created lands in one of the member's sub-orgs (`scopeCreateBody`).
 * An API user held to sub-organizations is held alike (its `scope` is set
 * by auth/api-client-auth.ts); one held to none passes straight through.
 */

type Scoped = { subOrgId?: string | undefined; subOrgIds?: string[] | undefined };

export function notFound(resource: string, id: string): ApiError {
  return new ApiError(404, ERROR_CODES.notFound, `No ${resource} with id "${id}"`);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The row itself when it lies in the caller's scope; 404 naming the resource otherwise. */
export function checked<T extends { subOrgId?: string | null | undefined }>(
  ctx: CustodyContext,
  resource: string,
  id: string,
  row: T,
): T {
  if (!inScope(ctx, row.subOrgId)) throw notFound(resource, id);
  return row;
}

/** The list query narrowed to the caller's scope, or 404 for a sub-org outside it. */
export function scopeListQuery<Q extends Scoped>(ctx: CustodyContext, query: Q): Q {
  const ids = allowedIds(ctx);
  if (!ids) return query;
  if (query.subOrgId) {
    if (!ids.includes(query.subOrgId)) throw notFound('sub-organization', query.subOrgId);
    return query;
  }
  if (ids.length === 1) return { ...query, subOrgId: ids[0] };
  return { ...query, subOrgIds: ids };
}

export function keepInScope<T extends { subOrgId?: string | null | undefined }>(
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
 * The create's sub-org: a member with exactly one sub-org gets it by default,
 * a member with several must name one (400), and one outside the scope is
 * 404 naming `subOrgId`. Returns the body to pass on.
 */
export function scopeCreateBody<B extends { subOrgId?: string | undefined }>(
  ctx: CustodyContext,
  body: B,
): B {
  const ids = allowedIds(ctx);
  if (!ids) return body;
  if (body.subOrgId) {
    if (!ids.includes(body.subOrgId)) {
      // 404 as for anything outside the scope (403 is the role's refusal), but on the field the
      // member chose, so a form can show it there; worded alike for another's sub-org and a
      // made-up id: the answer tells nothing of sub-organizations outside the scope.
      const message = `subOrgId is not one of your sub-organizations: "${body.subOrgId}" is outside your scope, so choose one of yours`;
      throw new ApiError(404, ERROR_CODES.notFound, message, [{ field: 'subOrgId', message }]);
    }
    return body;
  }
  if (ids.length === 1) return { ...body, subOrgId: ids[0] };
  const message =
    'subOrgId is required: you act in several sub-organizations, so name the one the account belongs to';
  throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'subOrgId', message }]);
}

/** An address as compared across chains and spellings: EVM hex in any case, with or without 0x. */
function addressKey(address: string): string {
  return address.trim().toLowerCase().replace(/^0x/, '');
}

/** Vaults read through to find whose an external address is: 10,000, beyond any organization. */
const MAX_VAULT_PAGES = 100;

export interface PartyRef {
  type?: string | undefined;
  id?: string | undefined;
}

/** The vaults and contacts a create or estimate names: each must be in the member's scope. */
export function namedParties(body: object): PartyRef[] {
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

/** An unknown id is the engine's to report, with its own message and field. */
function unlessUnknown<T>(promise: Promise<T>): Promise<T | null> {
  return promise.catch((e: unknown) => {
    if (isNotFound(e)) return null;
    throw e;
  });
}

/**
 * 404 unless every vault or contact the parties name lies in the scope, and
 * no external address is a vault's outside it. Reads through `inner`, the
 * unscoped backend.
 */
export async function checkParties(
  inner: CustodyBackend,
  ctx: CustodyContext,
  parties: PartyRef[],
): Promise<void> {
  if (!allowedIds(ctx)) return;
  let outsideAddresses: Map<string, string> | undefined;
  for (const party of parties) {
    if (!party.id) continue;
    if (party.type === 'VAULT') {
      const vault = await unlessUnknown(inner.getVault(ctx, party.id));
      if (vault && !inScope(ctx, vault.subOrgId)) throw notFound('vault', party.id);
    } else if (party.type === 'CONTACT') {
      const contact = await unlessUnknown(inner.getContact(ctx, party.id));
      if (contact && !inScope(ctx, contact.subOrgId)) throw notFound('contact', party.id);
    } else if (party.type === 'EXTERNAL_ADDRESS') {
      outsideAddresses ??= await vaultAddressesOutside(inner, ctx);
      if (outsideAddresses.has(addressKey(party.id))) {
        throw new ApiError(
          404,
          ERROR_CODES.notFound,
          `No address "${party.id}" you may pay: it belongs to a vault outside your sub-organizations`,
        );
      }
    }
  }
}

/** Every wallet address of the organization's vaults outside the scope, to the vault's id. */
async function vaultAddressesOutside(
  inner: CustodyBackend,
  ctx: CustodyContext,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const note = (vault: Vault) => {
    if (inScope(ctx, vault.subOrgId)) return;
    for (const wallet of vault.wallets ?? [])
      if (wallet.address) found.set(addressKey(wallet.address), vault.id ?? '');
  };
  let cursor: string | undefined;
  for (let call = 0; call < MAX_VAULT_PAGES; call += 1) {
    // The inner backend, unscoped: the vaults the member cannot see are the ones that matter.
    const page = await inner.listVaults(ctx, { limit: 100, cursor });
    page.results.forEach(note);
    if (!page.hasNext || !page.nextCursor) return found;
    cursor = page.nextCursor;
  }
  // Not every vault was read: refuse rather than let an unread one be paid as external.
  throw new ApiError(
    403,
    ERROR_CODES.forbidden,
    'The organization has too many vaults to check an external address against; ask a member of every sub-organization to send it',
  );
}
