import * as z from 'zod/mini';
import { BankDetails } from './party-record.ts';

/**
 * A vault's holdings valued, and where to deposit into it (the SDKs'
 * getDetailedBalances and get_deposit_address). Lenient, like every
 * response. The vault itself and its raw balances are in `reference.ts`.
 */

/** One asset on one chain: the balance, its price in USD and its value (decimal strings). */
export const DetailedBalance = z.looseObject({
  symbol: z.string(),
  balance: z.string(),
  name: z.optional(z.nullable(z.string())),
  chain: z.optional(z.nullable(z.string())),
  tokenAddress: z.optional(z.nullable(z.string())),
  /** The value in USD to the cent; absent when the asset has no price. */
  balanceInUSD: z.optional(z.nullable(z.string())),
  price: z.optional(z.nullable(z.string())),
});
export type DetailedBalance = z.infer<typeof DetailedBalance>;
export const DetailedBalanceList = z.array(DetailedBalance);

export const DepositAddress = z.looseObject({
  address: z.optional(z.nullable(z.string())),
  id: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  label: z.optional(z.nullable(z.string())),
  chain: z.optional(z.nullable(z.string())),
  chainName: z.optional(z.nullable(z.string())),
  asset: z.optional(z.nullable(z.string())),
});
export type DepositAddress = z.infer<typeof DepositAddress>;
export const DepositAddressResponse = z.looseObject({ addresses: z.array(DepositAddress) });
export type DepositAddressResponse = z.infer<typeof DepositAddressResponse>;

export const DepositAddressQuery = z.object({
  vaultId: z.string().check(z.minLength(1, 'vaultId is required')),
  currency: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9._-]{1,20}$/, 'currency is an asset symbol like "USDC"')),
  ),
});
export type DepositAddressQuery = z.infer<typeof DepositAddressQuery>;

/**
 * GET /api/external/vaults/{id}/deposit_instructions/ (the JS SDK's
 * getVaultDepositInstructions): an asset and exactly one of `chain` (crypto,
 * to the vault's wallet) or `paymentRail` (fiat, by bank transfer).
 */
export const VaultDepositInstructionsQuery = z
  .object({
    asset: z
      .string('asset is required')
      .check(z.regex(/^[A-Za-z0-9._-]{1,20}$/, 'asset is a symbol like "USDC" or "USD"')),
    chain: z.optional(
      z.string().check(z.regex(/^[A-Z0-9_]{1,40}$/, 'chain is a chain value like "ETHEREUM"')),
    ),
    paymentRail: z.optional(
      z.string().check(z.regex(/^[A-Z_]{1,40}$/, 'paymentRail is a rail like "WIRE" or "SEPA"')),
    ),
  })
  .check(
    z.superRefine((query, ctx) => {
      if (query.chain && query.paymentRail)
        ctx.issues.push({
          code: 'custom',
          input: query,
          path: ['paymentRail'],
          message: 'name a chain (crypto) or a paymentRail (fiat), not both',
        });
      else if (!query.chain && !query.paymentRail)
        ctx.issues.push({
          code: 'custom',
          input: query,
          path: ['chain'],
          message: 'name a chain (crypto) or a paymentRail (fiat)',
        });
    }),
  );
export type VaultDepositInstructionsQuery = z.infer<typeof VaultDepositInstructionsQuery>;

/** Where to send money into a vault: an address on a chain, or a bank account and its reference. */
export const VaultDepositInstruction = z.looseObject({
  type: z.optional(z.string()),
  asset: z.optional(z.string()),
  chain: z.optional(z.string()),
  address: z.optional(z.string()),
  paymentRail: z.optional(z.string()),
  /** The reference the bank transfer must carry. */
  memo: z.optional(z.string()),
  bankDetails: z.optional(BankDetails),
});
export const VaultDepositInstructionsResponse = z.looseObject({
  results: z.array(VaultDepositInstruction),
});
export type VaultDepositInstructionsResponse = z.infer<typeof VaultDepositInstructionsResponse>;
