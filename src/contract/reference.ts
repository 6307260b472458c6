import { z } from 'zod';
import { CONTACT_STATUSES, VAULT_TYPES, lenientEnum } from './enums.ts';
import { listEnvelope } from './common.ts';

/**
 * Supporting reads the forms need: vaults, their balances,
 * contacts, assets, supported chains and sub-organizations. Lenient, like
 * every response.
 */

export const Wallet = z.looseObject({
  id: z.string().optional(),
  blockchain: z.string().optional(),
  address: z.string().optional(),
});
export type Wallet = z.infer<typeof Wallet>;

/** A person who signs for a vault or may only see it (the SDKs' `User`). */
export const VaultMember = z.looseObject({
  id: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
});
export type VaultMember = z.infer<typeof VaultMember>;

export const Vault = z.looseObject({
  id: z.string().optional(),
  orgId: z.string().optional(),
  subOrgId: z.string().nullable().optional(),
  vaultName: z.string().optional(),
  vaultType: lenientEnum(VAULT_TYPES).optional(),
  wallets: z.array(Wallet).optional(),
  signers: z.array(VaultMember).optional(),
  viewers: z.array(VaultMember).optional(),
  walletsGenerated: z.boolean().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional(),
});
export type Vault = z.infer<typeof Vault>;
export const VaultListResponse = listEnvelope(Vault);
export type VaultListResponse = z.infer<typeof VaultListResponse>;

/** `{ASSET: {CHAIN: "decimal"}}` */
export const VaultBalances = z.record(z.string(), z.record(z.string(), z.string()));
export type VaultBalances = z.infer<typeof VaultBalances>;

export const Contact = z.looseObject({
  id: z.string().optional(),
  orgId: z.string().optional(),
  name: z.string().optional(),
  blockChain: z.string().optional(),
  address: z.string().optional(),
  status: lenientEnum(CONTACT_STATUSES).optional(),
  assetList: z.array(z.string()).optional(),
  subOrgId: z.string().nullable().optional(),
  isSmartContractAddress: z.boolean().optional(),
  isSanctioned: z.boolean().optional(),
  createdById: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional(),
});
export type Contact = z.infer<typeof Contact>;
export const ContactListResponse = listEnvelope(Contact);
export type ContactListResponse = z.infer<typeof ContactListResponse>;

export const Asset = z.looseObject({
  name: z.string().optional(),
  symbol: z.string().optional(),
  blockChain: z.string().optional(),
  /** Sandbox extra: how many fractional digits an amount may carry. */
  decimals: z.number().int().optional(),
  /** Provider-defined; the sandbox puts `decimals` and `isNative` here. */
  details: z.unknown().optional(),
  logoURL: z.string().optional(),
});
export type Asset = z.infer<typeof Asset>;
export const AssetListResponse = z.array(Asset);

export const SupportedChain = z.looseObject({
  value: z.string(),
  label: z.string().optional(),
  logo: z.string().optional(),
});
export type SupportedChain = z.infer<typeof SupportedChain>;
export const SupportedChainListResponse = z.array(SupportedChain);

export const SubOrg = z.looseObject({
  id: z.string().optional(),
  orgId: z.string().optional(),
  name: z.string().optional(),
});
export type SubOrg = z.infer<typeof SubOrg>;
export const SubOrgListResponse = listEnvelope(SubOrg);
export type SubOrgListResponse = z.infer<typeof SubOrgListResponse>;

// ---------------------------------------------------------------------------
// Change-request approvals (bank accounts, transactions, contacts, vaults).
// ---------------------------------------------------------------------------

export const ApprovalMessageResponse = z.looseObject({
  approvalId: z.string(),
  message: z.string(),
  changeRequestId: z.string().optional(),
  entityId: z.string().optional(),
});
export type ApprovalMessageResponse = z.infer<typeof ApprovalMessageResponse>;

export const ApprovalAction = z.enum(['approve', 'reject']);
export type ApprovalAction = z.infer<typeof ApprovalAction>;

/**
 * API clients must send `signature` (hex signature of the approval message);
 * a signed-in staff member sends none and the server acts for them. Which
 * case applies is the server's decision, so the schema leaves it optional.
 */
export const ApprovalActionRequest = z
  .strictObject({
    action: ApprovalAction,
    signature: z
      .string()
      .regex(/^([0-9a-fA-F]{2})+$/, 'signature must be hex bytes')
      .optional(),
    reason: z.string().trim().max(500, 'reason must be at most 500 characters').optional(),
    // Sent by versions of the Python SDK (README, "What the sandbox accepts
    // from SDK clients"): checked against the approval, never trusted instead of it.
    entityId: z.string().max(200, 'entityId must be at most 200 characters').optional(),
    message: z.string().max(10_000, 'message must be at most 10000 characters').optional(),
  })
  .refine((b) => b.action !== 'reject' || Boolean(b.reason), {
    path: ['reason'],
    message: 'reason is required to reject',
  });
export type ApprovalActionRequest = z.infer<typeof ApprovalActionRequest>;

export const ApprovalActionResponse = z.looseObject({
  success: z.boolean(),
  status: z.string().optional(),
  id: z.string().optional(),
  entityId: z.string().optional(),
});
export type ApprovalActionResponse = z.infer<typeof ApprovalActionResponse>;

/** The filters GET /vaults/ and GET /contacts/ take (a name contains this text, any case). */
export const VaultFilters = z.object({ vaultName: z.string().trim().min(1).max(200).optional() });
export type VaultFilters = z.infer<typeof VaultFilters>;
export const ContactFilters = z.object({ name: z.string().trim().min(1).max(200).optional() });
export type ContactFilters = z.infer<typeof ContactFilters>;
