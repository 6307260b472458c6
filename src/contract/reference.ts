import * as z from 'zod/mini';
import { CONTACT_STATUSES, ContactStatus, VAULT_TYPES, lenientEnum } from './enums.ts';
import { listEnvelope } from './common.ts';

/**
 * Supporting reads the forms need: vaults, their balances,
 * contacts, assets, supported chains and sub-organizations. Lenient, like
 * every response. Change-request approvals are in `approvals.ts`.
 */

export const Wallet = z.looseObject({
  id: z.optional(z.string()),
  blockchain: z.optional(z.string()),
  address: z.optional(z.string()),
});
type Wallet = z.infer<typeof Wallet>;

/** A person who signs for a vault or may only see it (the SDKs' `User`). */
export const VaultMember = z.looseObject({
  id: z.string(),
  firstName: z.optional(z.string()),
  lastName: z.optional(z.string()),
  email: z.optional(z.string()),
  /** `API_USER` for an API user named with createVault's `vaultSigners`: it acts on operations (operations.ts). */
  type: z.optional(z.string()),
});
export type VaultMember = z.infer<typeof VaultMember>;

export const Vault = z.looseObject({
  id: z.optional(z.string()),
  orgId: z.optional(z.string()),
  subOrgId: z.optional(z.nullable(z.string())),
  vaultName: z.optional(z.string()),
  vaultType: z.optional(lenientEnum(VAULT_TYPES)),
  wallets: z.optional(z.array(Wallet)),
  signers: z.optional(z.array(VaultMember)),
  viewers: z.optional(z.array(VaultMember)),
  walletsGenerated: z.optional(z.boolean()),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
});
export type Vault = z.infer<typeof Vault>;
/**
 * A page of vaults. Asked for by `page`, it also carries what the older
 * Python SDK's VaultListResponse requires: how many vaults match, and the
 * addresses of the pages either side (null at either end).
 */
export const VaultListResponse = z.extend(listEnvelope(Vault), {
  count: z.optional(z.number()),
  next: z.optional(z.nullable(z.string())),
  previous: z.optional(z.nullable(z.string())),
});
export type VaultListResponse = z.infer<typeof VaultListResponse>;

/** `{ASSET: {CHAIN: "decimal"}}` */
export const VaultBalances = z.record(z.string(), z.record(z.string(), z.string()));
export type VaultBalances = z.infer<typeof VaultBalances>;

export const Contact = z.looseObject({
  id: z.optional(z.string()),
  orgId: z.optional(z.string()),
  name: z.optional(z.string()),
  blockChain: z.optional(z.string()),
  address: z.optional(z.string()),
  status: z.optional(lenientEnum(CONTACT_STATUSES)),
  assetList: z.optional(z.array(z.string())),
  subOrgId: z.optional(z.nullable(z.string())),
  isSmartContractAddress: z.optional(z.boolean()),
  isSanctioned: z.optional(z.boolean()),
  tags: z.optional(z.array(z.string())),
  externalId: z.optional(z.nullable(z.string())),
  /**
   * Sandbox extra: an asset list proposed for an approved contact and
   * awaiting approval (the contact receives only `assetList` until then).
   */
  pendingAssetList: z.optional(z.nullable(z.array(z.string()))),
  createdById: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
});
export type Contact = z.infer<typeof Contact>;
export const ContactListResponse = listEnvelope(Contact);
export type ContactListResponse = z.infer<typeof ContactListResponse>;

export const Asset = z.looseObject({
  name: z.optional(z.string()),
  symbol: z.optional(z.string()),
  blockChain: z.optional(z.string()),
  /** Sandbox extra: how many fractional digits an amount may carry. */
  decimals: z.optional(z.int()),
  /** Provider-defined; the sandbox puts `decimals` and `isNative` here. */
  details: z.optional(z.unknown()),
  logoURL: z.optional(z.string()),
});
export type Asset = z.infer<typeof Asset>;
export const AssetListResponse = z.array(Asset);

export const SupportedChain = z.looseObject({
  value: z.string(),
  label: z.optional(z.string()),
  logo: z.optional(z.string()),
});
export type SupportedChain = z.infer<typeof SupportedChain>;
export const SupportedChainListResponse = z.array(SupportedChain);

/** The SDKs' SubOrg: `controlMode` and `version` are null on sub-organizations older than them. */
export const SubOrg = z.looseObject({
  id: z.optional(z.string()),
  orgId: z.optional(z.string()),
  name: z.optional(z.string()),
  controlMode: z.optional(z.nullable(z.string())),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
  version: z.optional(z.nullable(z.number())),
});
export type SubOrg = z.infer<typeof SubOrg>;
export const SubOrgListResponse = listEnvelope(SubOrg);
export type SubOrgListResponse = z.infer<typeof SubOrgListResponse>;

/**
 * GET /sub_orgs/'s filter: the JS SDK's example sends `name: "%Acme%"`, a
 * LIKE pattern with `%` for any text; a name without `%` matches as a part
 * of one, any case, as vaults' and contacts' do.
 */
export const SubOrgFilters = z.object({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});
export type SubOrgFilters = z.infer<typeof SubOrgFilters>;

/** The most pages the older SDKs' `page` may skip: 100,000 pages of 100 vaults. */
export const MAX_VAULT_PAGE = 100_000;

/**
 * The filters GET /vaults/ and GET /contacts/ take (a name contains this
 * text, any case). The vault list also takes what the older SDKs' getVaults
 * sends in place of a cursor: `page`, counted from 1 in pages of `limit`,
 * and `reverse`, oldest first rather than newest (`true`/`false`, or
 * Python's `True`/`False` as its SDK writes them).
 */
export const VaultFilters = z.object({
  vaultName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  page: z.optional(
    z
      .pipe(
        z
          .string()
          .check(
            z.regex(/^[1-9]\d{0,5}$/, `page must be a whole number from 1 to ${MAX_VAULT_PAGE}`),
          ),
        // eslint-disable-next-line no-restricted-syntax -- a page number, checked digits only
        z.transform((s: string) => Number.parseInt(s, 10)),
      )
      .check(
        z.refine(
          (n: number) => n <= MAX_VAULT_PAGE,
          `page must be a whole number from 1 to ${MAX_VAULT_PAGE}`,
        ),
      ),
  ),
  reverse: z.optional(
    z.pipe(
      z.string().check(z.regex(/^(true|false)$/i, 'reverse must be true or false')),
      z.transform((s: string) => s.toLowerCase() === 'true'),
    ),
  ),
});
export type VaultFilters = z.infer<typeof VaultFilters>;
export const ContactFilters = z.object({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  status: z.optional(ContactStatus),
  blockChain: z.optional(
    z.string().check(z.regex(/^[A-Z0-9_]{1,40}$/, 'blockChain is a chain value like "ETHEREUM"')),
  ),
  externalId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  subOrgId: z.optional(z.string().check(z.minLength(1))),
});
export type ContactFilters = z.infer<typeof ContactFilters>;
