import { z } from 'zod';
import { FeeTier } from '../../../../../contract/enums.ts';
import { addressProblem } from '../../../../../contract/addresses.ts';
import { add, cmp, isNegative, round, scale, sub } from '../../../../../contract/decimal.ts';

/**
 * Rules the four create forms share. The request rules themselves come from
 * the contract's create schemas (each form runs its built request through
 * one); what is here needs what the pickers know: the asset's precision, the
 * vault's balance, the fee, the chain's address format.
 */

/** What the pickers know when the form validates; anything unknown is left to the server. */
export interface FormContext {
  /** Fractional digits the chosen asset allows on the chosen chain. */
  decimals?: number | undefined;
  /** The source vault's balance of the chosen asset on the chosen chain. */
  balance?: string | undefined;
  /** The chosen tier's fee when the source pays it in the asset being sent. */
  feeInAsset?: string | undefined;
}

/** The API lets it be left out; the console does not, because it is what stops a second send. */
export const EXTERNAL_ID_REQUIRED =
  'keep an external ID: it is what makes sure this is created only once';

/**
 * The values a form that sends from a vault holds under the same names
 * (transfer, stake, delegation), as typed: flat strings the pickers fill.
 */
export const sendFormShape = {
  sourceVaultId: z.string(),
  blockChain: z.string(),
  asset: z.string(),
  amount: z.string(),
  memo: z.string(),
  externalId: z.string(),
  feeTier: FeeTier,
};

/** A fresh form of that shape: nothing chosen, its own externalId, the HIGH tier. */
export function sendFormDefaults() {
  return {
    sourceVaultId: '',
    blockChain: '',
    asset: '',
    amount: '',
    memo: '',
    externalId: newExternalId(),
    feeTier: 'HIGH' as const,
  };
}

/** Every form gets its own reference when it opens, so a retry can never create a second transaction. */
export function newExternalId(): string {
  return `console-${globalThis.crypto.randomUUID()}`;
}

/** The most that can be sent: the balance, less the fee when it is paid in the same asset, at the asset's precision. */
export function maxAmount(ctx: FormContext): string | undefined {
  if (ctx.balance === undefined) return undefined;
  const left = ctx.feeInAsset ? sub(ctx.balance, ctx.feeInAsset) : ctx.balance;
  if (isNegative(left)) return '0';
  return ctx.decimals === undefined ? left : trimZeros(round(left, ctx.decimals, 'down'));
}

function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

/**
 * Precision and balance, once the contract's own amount rule holds. Adds at
 * most one issue on `path`.
 */
export function checkAmountAgainst(
  amount: string,
  ctx: FormContext,
  issue: (message: string) => void,
): void {
  // Trailing zeros carry no precision: "1.50" is fine for a 1-decimal asset.
  if (ctx.decimals !== undefined && scale(add(amount, '0')) > ctx.decimals) {
    issue(`at most ${ctx.decimals} decimal places for this asset`);
    return;
  }
  if (ctx.balance === undefined) return;
  const needed = ctx.feeInAsset ? add(amount, ctx.feeInAsset) : amount;
  if (cmp(needed, ctx.balance) > 0)
    issue(
      ctx.feeInAsset
        ? `more than the vault holds: ${amount} plus the ${ctx.feeInAsset} fee exceeds the balance of ${ctx.balance}`
        : `more than the vault holds: the balance is ${ctx.balance}`,
    );
}

export function checkAddress(blockChain: string, address: string): string | null {
  if (address.trim() === '') return 'enter the destination address';
  return addressProblem(blockChain, address.trim());
}

/**
 * Runs the request a form would send through the contract's schema and puts
 * each problem on the form field it came from. `fieldFor` maps a request path
 * ("source.id") to a form field; fields that already carry a clearer form
 * rule are skipped so a person sees one message per field.
 */
export function addContractIssues<T>(
  schema: z.ZodType<T>,
  request: unknown,
  fieldFor: (path: string) => string | undefined,
  flagged: Set<string>,
  ctx: z.RefinementCtx,
): void {
  const result = schema.safeParse(request);
  if (result.success) return;
  for (const issue of result.error.issues) {
    const field = fieldFor(issue.path.map(String).join('.')) ?? 'root';
    if (flagged.has(field)) continue;
    flagged.add(field);
    ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
  }
}

/** Optional text fields: empty means "not sent". */
export function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The request path's first segment, for mapping `fields` the server names to form fields. */
export function head(path: string): string {
  return path.split('.')[0] ?? path;
}
