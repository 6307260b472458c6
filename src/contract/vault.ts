import * as z from 'zod/mini';

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
