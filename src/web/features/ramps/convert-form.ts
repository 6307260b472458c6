import { z } from 'zod';
import { cmp, scale } from '#contract/decimal.ts';
import type { RampKind } from '#contract/ramp-record.ts';
import {
  IntentQuoteRequest,
  RAIL_CURRENCIES,
  RAMP_FIAT_CURRENCIES,
  type RampIntentInput,
} from '#contract/ramps.ts';
import { MEMO_MAX_LENGTH } from '#contract/transaction.ts';
import type { PaymentMethod } from '#contract/enums.ts';

/**
 * The Convert form: what a person picks for an off-ramp (a vault's
 * stablecoin to an approved bank account), an on-ramp (money from the
 * organization's bank to a vault) or an FX (money from its bank to an
 * approved account in another currency), as flat strings; the rules in the
 * form's words, then the quote request run through the contract's own
 * schema, each problem on the field it came from.
 */
export const ConvertFormValues = z.object({
  /** Off-ramp: the vault paying; on-ramp: the vault credited. */
  vaultId: z.string(),
  chain: z.string(),
  /** The digital asset sold (off-ramp) or bought (on-ramp). */
  asset: z.string(),
  /** Off-ramp and FX: the approved bank account paid. */
  bankAccountId: z.string(),
  /** Off-ramp and FX: the currency the account is paid in. */
  currency: z.string(),
  /** On-ramp and FX: the currency the organization pays in from its bank. */
  payCurrency: z.string(),
  /** Which side `amount` is: what leaves, or what must arrive. */
  amountSide: z.enum(['from', 'to']),
  amount: z.string(),
  memo: z.string(),
  externalId: z.string(),
});
export type ConvertFormValues = z.infer<typeof ConvertFormValues>;

/** Every form gets its own reference when it opens, so a retry can never create a second transaction. */
export function convertDefaults(): ConvertFormValues {
  return {
    vaultId: '',
    chain: '',
    asset: '',
    bankAccountId: '',
    currency: '',
    payCurrency: '',
    amountSide: 'from',
    amount: '',
    memo: '',
    externalId: `console-${globalThis.crypto.randomUUID()}`,
  };
}

/** What leaves and what arrives, by kind: the asset on each side. */
export function sidesOf(kind: RampKind, v: ConvertFormValues): { from: string; to: string } {
  if (kind === 'OFF_RAMP') return { from: v.asset, to: v.currency };
  if (kind === 'ON_RAMP') return { from: v.payCurrency, to: v.asset };
  return { from: v.payCurrency, to: v.currency };
}

/** The intent the values describe, as the quote and the create send it. */
export function toIntent(kind: RampKind, v: ConvertFormValues): RampIntentInput {
  const amount = v.amount.trim();
  const sides = sidesOf(kind, v);
  const amountPart = v.amountSide === 'to' ? { toAmount: amount } : { fromAmount: amount };
  const bank = { type: 'BANK_ACCOUNT' as const, id: v.bankAccountId };
  const payersBank = { type: 'EXTERNAL_BANK_ACCOUNT' as const };
  if (kind === 'OFF_RAMP')
    return {
      source: { type: 'VAULT', id: v.vaultId },
      destination: bank,
      fromAsset: sides.from,
      fromChain: v.chain,
      toAsset: sides.to,
      ...amountPart,
    };
  if (kind === 'ON_RAMP')
    return {
      source: payersBank,
      destination: { type: 'VAULT', id: v.vaultId },
      fromAsset: sides.from,
      toAsset: sides.to,
      toChain: v.chain,
      ...amountPart,
    };
  return {
    source: payersBank,
    destination: bank,
    fromAsset: sides.from,
    toAsset: sides.to,
    ...amountPart,
  };
}

/** The form field a request path (or a server `fields` entry, `intent.toAmount`) is about. */
export function convertFieldFor(kind: RampKind, path: string): keyof ConvertFormValues | undefined {
  const key = path.replace(/^intent\./, '').split('.')[0] ?? '';
  const bankOrVault = kind === 'ON_RAMP' ? 'vaultId' : 'bankAccountId';
  const fields: Readonly<Record<string, keyof ConvertFormValues>> = {
    source: kind === 'OFF_RAMP' ? 'vaultId' : 'payCurrency',
    destination: bankOrVault,
    fromAsset: kind === 'OFF_RAMP' ? 'asset' : 'payCurrency',
    toAsset: kind === 'ON_RAMP' ? 'asset' : 'currency',
    fromChain: 'chain',
    toChain: 'chain',
    fromAmount: 'amount',
    toAmount: 'amount',
    fromPaymentRail: kind === 'OFF_RAMP' ? 'vaultId' : 'payCurrency',
    toPaymentRail: bankOrVault,
    paymentMethod: bankOrVault,
    memo: 'memo',
    externalId: 'externalId',
  };
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** What the pickers know when the form validates; anything unknown is left to the server. */
export interface ConvertContext {
  /** Off-ramp: the vault's balance of the asset on the chain. */
  balance?: string | undefined;
  /** The chosen bank account's rail. */
  rail?: PaymentMethod | undefined;
}

/** The contract's wire words ("intent.fromAmount must be…") in the form's, under a labelled field. */
function plain(message: string): string {
  return message
    .replace(/^[a-z][A-Za-z]*(\.[A-Za-z]+)*(: | (?=must |is |has ))/, '')
    .replace(
      /^must be a positive decimal number written as a string, like "12\.5"$/,
      'enter an amount above zero, like 12.5',
    )
    .replace(/^is required$/, 'fill this in');
}

type IssueOn = (field: keyof ConvertFormValues, message: string) => void;

function kindRules(kind: RampKind, v: ConvertFormValues, ctx: ConvertContext, issue: IssueOn) {
  if (kind !== 'FX') {
    if (!v.vaultId)
      issue(
        'vaultId',
        kind === 'OFF_RAMP' ? 'choose the vault to pay from' : 'choose the vault to credit',
      );
    if (!v.chain) issue('chain', 'choose a chain');
    if (!v.asset) issue('asset', 'choose the asset');
  }
  if (kind !== 'ON_RAMP') {
    if (!v.bankAccountId) issue('bankAccountId', 'choose the approved bank account to pay');
    if (!v.currency) issue('currency', 'choose the currency the account is paid in');
    else if (ctx.rail && !RAIL_CURRENCIES[ctx.rail].includes(v.currency))
      issue('currency', `this account's rail takes ${RAIL_CURRENCIES[ctx.rail].join(', ')}`);
  }
  if (kind !== 'OFF_RAMP' && !v.payCurrency) issue('payCurrency', 'choose the currency you pay in');
  if (kind === 'FX' && v.payCurrency && v.payCurrency === v.currency)
    issue('currency', 'choose another currency than the one you pay in: FX converts between two');
}

function amountRules(kind: RampKind, v: ConvertFormValues, ctx: ConvertContext, issue: IssueOn) {
  const amount = v.amount.trim();
  if (!amount) {
    issue('amount', 'enter the amount');
    return;
  }
  if (!/^(0|[1-9]\d*)(\.\d+)?$/.test(amount) || !/[1-9]/.test(amount)) {
    issue('amount', 'enter an amount above zero, like 12.5, with a dot for decimals');
    return;
  }
  const { from, to } = sidesOf(kind, v);
  const asset = v.amountSide === 'to' ? to : from;
  // Cents for money, the stablecoins' 6 places for a digital asset.
  const places = (RAMP_FIAT_CURRENCIES as readonly string[]).includes(asset) ? 2 : 6;
  if (asset && scale(amount) > places) {
    issue('amount', `at most ${places} decimal places for ${asset}`);
    return;
  }
  if (kind === 'OFF_RAMP' && v.amountSide === 'from' && ctx.balance !== undefined)
    if (cmp(amount, ctx.balance) > 0)
      issue('amount', `more than the vault holds: the balance is ${ctx.balance} ${from}`);
}

/**
 * The form's schema for `kind`: its values as typed, its rules (one message
 * per field, in the order a person reads the form), then the quote request
 * run through the contract; its output is the quote request itself.
 */
export function convertSchema(kind: RampKind, ctx: ConvertContext = {}) {
  return ConvertFormValues.superRefine((v, refine) => {
    const flagged = new Set<string>();
    const issue: IssueOn = (field, message) => {
      if (flagged.has(field)) return;
      flagged.add(field);
      refine.addIssue({ code: 'custom', path: [field], message });
    };
    kindRules(kind, v, ctx, issue);
    amountRules(kind, v, ctx, issue);
    if (v.memo.length > MEMO_MAX_LENGTH) issue('memo', `at most ${MEMO_MAX_LENGTH} characters`);
    if (!v.externalId.trim())
      issue('externalId', 'keep an external ID: it is what makes sure this is created only once');
    const result = IntentQuoteRequest.safeParse({ intent: toIntent(kind, v) });
    if (!result.success)
      for (const problem of result.error.issues)
        issue(
          convertFieldFor(kind, problem.path.map(String).join('.')) ?? 'amount',
          plain(problem.message),
        );
  }).transform((v) => ({ intent: toIntent(kind, v) }));
}
