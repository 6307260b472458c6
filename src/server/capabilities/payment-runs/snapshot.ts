import { ApiError } from '#contract/api-error.ts';
import type { PaymentRowInput } from '#contract/payment-runs.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { Database } from '../../db/client.ts';
import { RAIL_CURRENCIES, type RampQuoteRequest } from '#contract/ramps.ts';
import { assetKey, type CheckSnapshot, type OffRampQuoted } from './check.ts';
import { paidReferences } from './store.ts';

/**
 * The reference data a run's rows name, read once through the scoped backend
 * (an item outside the member's sub-organizations reads as unknown): each
 * named vault with its balances, contact and bank account; the assets on
 * their chains; a price and one transfer's fee estimate per asset and chain.
 */

async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

const distinct = <T>(values: readonly (T | undefined)[]): T[] =>
  [...new Set(values)].filter((v): v is T => v !== undefined);

export async function checkSnapshot(
  db: Database,
  backend: CustodyBackend,
  ctx: CustodyContext,
  run: { id: string; subOrgId: string | null },
  rows: readonly PaymentRowInput[],
): Promise<CheckSnapshot> {
  const vaults: CheckSnapshot['vaults'] = new Map(
    await Promise.all(
      distinct(rows.map((r) => r.sourceVaultId)).map(async (id) => {
        const vault = await orUndefined(backend.getVault(ctx, id));
        const balances = vault ? await backend.getVaultBalances(ctx, id) : {};
        return [id, vault ? { subOrgId: vault.subOrgId ?? null, balances } : undefined] as const;
      }),
    ).then((list) => list.filter((e): e is [string, NonNullable<(typeof e)[1]>] => !!e[1])),
  );
  const contacts: CheckSnapshot['contacts'] = new Map(
    (
      await Promise.all(
        distinct(rows.map((r) => r.contactId)).map(
          async (id) => [id, await orUndefined(backend.getContact(ctx, id))] as const,
        ),
      )
    ).flatMap(([id, c]) => (c ? [[id, c] as const] : [])),
  );
  const bankAccounts: CheckSnapshot['bankAccounts'] = new Map(
    (
      await Promise.all(
        distinct(rows.map((r) => r.bankAccountId)).map(
          async (id) => [id, await orUndefined(backend.getBankAccount(ctx, id))] as const,
        ),
      )
    ).flatMap(([id, b]) => (b ? [[id, b] as const] : [])),
  );
  const assets: CheckSnapshot['assets'] = new Map(
    (await backend.listAssets(ctx)).flatMap((a) =>
      a.symbol && a.blockChain
        ? [[assetKey(a.symbol, a.blockChain), { decimals: a.decimals ?? null }] as const]
        : [],
    ),
  );

  // One row per asset and chain stands for the others: its price per unit and one transfer's fee.
  const firstOf = new Map<string, PaymentRowInput>();
  for (const row of rows)
    if (!firstOf.has(assetKey(row.asset, row.blockChain)))
      firstOf.set(assetKey(row.asset, row.blockChain), row);
  const prices = new Map<string, string>();
  const fees = new Map<string, { asset: string; blockChain: string; amount: string }>();
  await Promise.all(
    [...firstOf].map(async ([key, row]) => {
      const price = backend.usdValue
        ? await backend.usdValue(ctx, row.asset, row.blockChain, '1', row.sourceVaultId)
        : null;
      if (price !== null) prices.set(key, price);
      if (row.kind !== 'CRYPTO' || !vaults.has(row.sourceVaultId)) return;
      const destination =
        row.contactId !== undefined
          ? { type: 'CONTACT' as const, id: row.contactId }
          : { type: 'EXTERNAL_ADDRESS' as const, id: row.address ?? '' };
      const estimate = await backend
        .estimateFee(ctx, {
          category: 'TRANSFER',
          source: { type: 'VAULT', id: row.sourceVaultId },
          destination,
          asset: row.asset,
          blockChain: row.blockChain,
          amount: row.amount,
        })
        // A row the checks refuse has no estimate to give: its fee is left out, never guessed.
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status < 500) return null;
          throw error;
        });
      const tier = estimate?.high;
      if (tier)
        fees.set(key, {
          asset: tier.asset,
          blockChain: row.blockChain,
          amount: tier.expectedFeeInAsset,
        });
    }),
  );
  // The fee's own asset needs a price too (a token transfer pays its fee in the chain's coin).
  await Promise.all(
    [...fees.values()].map(async (fee) => {
      const key = assetKey(fee.asset, fee.blockChain);
      if (prices.has(key) || !backend.usdValue) return;
      const price = await backend.usdValue(ctx, fee.asset, fee.blockChain, '1');
      if (price !== null) prices.set(key, price);
    }),
  );

  // Each fiat row's off-ramp, quoted as it would be paid: the provider's limits, the rail's
  // currency and the vault's balance are its to refuse, and its fee is the row's cost.
  const offRamps = new Map<number, OffRampQuoted>();
  await Promise.all(
    rows.map(async (row, i) => {
      if (row.kind !== 'FIAT' || !vaults.has(row.sourceVaultId)) return;
      const account = bankAccounts.get(row.bankAccountId ?? '');
      if (account?.status !== 'APPROVED' || !account.id) return;
      const quoted = await quoteOffRamp(backend, ctx, row, account);
      offRamps.set(i + 1, quoted);
      const fee = quoted.ok ? assetKey(quoted.quote.feeAsset, row.blockChain) : null;
      if (fee && !prices.has(fee) && backend.usdValue) {
        const price = await backend.usdValue(ctx, row.asset, row.blockChain, '1');
        if (price !== null) prices.set(fee, price);
      }
    }),
  );

  return {
    offRamps,
    subOrgId: run.subOrgId,
    vaults,
    contacts,
    bankAccounts,
    assets,
    paidReferences: await paidReferences(
      db,
      run.id,
      rows.map((r) => r.reference),
    ),
    prices,
    fees,
  };
}

/**
 * The currency a fiat row pays its bank account in: the one its rail carries, the first
 * when it carries several (SWIFT and bank transfers pay USD).
 */
export function rowCurrency(paymentMethod: string | undefined): string | null {
  const carried = paymentMethod
    ? RAIL_CURRENCIES[paymentMethod as keyof typeof RAIL_CURRENCIES]
    : undefined;
  return carried?.[0] ?? null;
}

/** Where a refused off-ramp quote's reason belongs on the row, by its code. */
function fieldOf(code: string | undefined): string {
  if (!code) return 'bankAccountId';
  if (/AMOUNT|BALANCE/.test(code)) return 'amount';
  if (/ROUTE|ASSET/.test(code)) return 'asset';
  return 'bankAccountId';
}

/**
 * A fiat row's off-ramp quoted now: the row's amount leaving the vault (the provider's fee
 * inside it) to the approved bank account, in the currency and by the rail the account takes.
 * A refusal (a 4xx) is the row's to fix; anything else is thrown.
 */
export async function quoteOffRamp(
  backend: CustodyBackend,
  ctx: CustodyContext,
  row: Pick<PaymentRowInput, 'sourceVaultId' | 'asset' | 'blockChain' | 'amount'> & {
    bankAccountId?: string | null | undefined;
  },
  account: { id?: string | undefined; paymentMethod?: string | undefined },
): Promise<OffRampQuoted & { quoteId?: string; finalFromAmount?: string }> {
  const currency = rowCurrency(account.paymentMethod);
  if (!currency || !account.paymentMethod)
    return {
      ok: false,
      field: 'bankAccountId',
      message: `bank account "${row.bankAccountId ?? ''}" has no rail an off-ramp pays`,
    };
  const request = {
    category: 'OFF_RAMP',
    source: { type: 'VAULT', id: row.sourceVaultId },
    destination: { type: 'BANK_ACCOUNT', id: account.id },
    fromAsset: row.asset,
    fromChain: row.blockChain,
    fromAmount: row.amount,
    toAsset: currency,
    paymentMethod: account.paymentMethod,
  } as RampQuoteRequest;
  try {
    const answer = await backend.quoteRamp(ctx, request);
    const best = answer.quotes?.[0] ?? answer;
    if (!best.quoteId || !best.finalToAmount || !best.fees?.amount)
      return { ok: false, field: 'bankAccountId', message: 'the provider answered no quote' };
    return {
      ok: true,
      quoteId: best.quoteId,
      ...(best.finalFromAmount ? { finalFromAmount: best.finalFromAmount } : {}),
      quote: {
        paymentMethod: account.paymentMethod,
        currency,
        toAmount: best.finalToAmount,
        feeAsset: best.fees.asset ?? row.asset,
        feeAmount: best.fees.amount,
        feeUsd: best.fees.amountInFiat ?? null,
      },
    };
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 429
    )
      return { ok: false, field: fieldOf(error.code), message: error.message };
    throw error;
  }
}
