import { z } from 'zod';
import { FeeTier } from '#contract/enums.ts';
import { addressProblem } from '#contract/addresses.ts';
import { addressChecksumProblem } from '#contract/contact-address.ts';
import { add, cmp, isNegative, round, scale, sub } from '#contract/decimal.ts';

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
  /** The source vault's own address on the chosen chain: never a destination of its own. */
  sourceAddress?: string | undefined;
  /**
   * An unstake's limit: what the vault has staked (the server's figure). An
   * unstake takes back from the stake, not the balance, so it is judged on this alone.
   */
  staked?: string | undefined;
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

export type SendFormValues = z.infer<z.ZodObject<typeof sendFormShape>>;

/**
 * A fresh form of that shape: nothing chosen, its own externalId, the middle
 * tier: the member chooses to pay more for speed, never by default.
 */
export function sendFormDefaults() {
  return {
    sourceVaultId: '',
    blockChain: '',
    asset: '',
    amount: '',
    memo: '',
    externalId: newExternalId(),
    feeTier: 'MEDIUM' as const,
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
 * Precision and balance, once the contract's own amount rule holds. Calls
 * `issue` at most once.
 */
export function checkAmountAgainst(
  amount: string,
  ctx: FormContext,
  issue: (message: string) => void,
): void {
  // Trailing zeros carry no precision: "1.50" is fine for a 1-decimal asset.
  if (ctx.decimals !== undefined && scale(add(amount, '0')) > ctx.decimals) {
    issue(`The amount may have at most ${ctx.decimals} decimal places for this asset.`);
    return;
  }
  if (ctx.staked !== undefined) {
    if (cmp(amount, ctx.staked) > 0)
      issue(`The amount is more than the vault has staked: ${ctx.staked} is staked.`);
    return;
  }
  if (ctx.balance === undefined) return;
  const needed = ctx.feeInAsset ? add(amount, ctx.feeInAsset) : amount;
  if (cmp(needed, ctx.balance) > 0)
    issue(
      ctx.feeInAsset
        ? `The amount is more than the vault holds: ${amount} plus the ${ctx.feeInAsset} fee exceeds the balance of ${ctx.balance}.`
        : `The amount is more than the vault holds: the balance is ${ctx.balance}.`,
    );
}

/** The chain's format, then its checksum (the server's rule, contract/contact-address.ts). */
export function checkAddress(blockChain: string, address: string): string | null {
  if (address.trim() === '') return 'enter the destination address';
  return (
    addressProblem(blockChain, address.trim()) ?? addressChecksumProblem(blockChain, address.trim())
  );
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
    ctx.addIssue({ code: 'custom', path: [field], message: sentence(plainMessage(issue.message)) });
  }
}

/**
 * The contract's messages are written for API clients, naming the wire field
 * ("data.callData must be hex bytes") and the wire type ("written as a
 * string"). Under a labelled form field the name is already said and the
 * wire is not the member's business: the rule stays, in the form's words.
 */
const PLAIN_WORDS: ReadonlyArray<[RegExp, string]> = [
  [
    /^must be a positive decimal number written as a string, like "12\.5"$/,
    'enter an amount above zero, like 12.5',
  ],
  [
    /^must be hex bytes, like "(0x[0-9a-f]+)\.\.\."$/,
    'enter hex bytes (pairs of 0–9 and a–f), like $1…',
  ],
  [/^must be greater than zero$/, 'enter an amount above zero'],
  [/^is required$/, 'fill this in'],
];

/**
 * What a person reads under a field is a sentence: a capital first and a
 * full stop last, whether the words are the form's or the contract's.
 */
export function sentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.?!…]$/.test(capital) ? capital : `${capital}.`;
}

/** A wire field's name in the words a person reads, for a rule stated about it ("the memo must…"). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  memo: 'the memo',
  externalId: 'the external ID',
  amount: 'the amount',
  asset: 'the asset',
  blockChain: 'the chain',
  vaultId: 'the vault',
  'data.callData': 'the call data',
  'data.messageHex': 'the message',
  'data.method': 'the method',
  'data.canisterId': 'the canister ID',
};

export function plainMessage(message: string): string {
  // "data.callData must…", "asset is required", "source.id: …": the wire name goes; where
  // the rule is a statement about the field, the field is named in the form's words.
  const named = /^([a-z][A-Za-z]*(?:\.[A-Za-z]+)*)(: | (?=must |is |has ))/.exec(message);
  let text = named ? message.slice(named[0].length) : message;
  const wire = text;
  for (const [pattern, words] of PLAIN_WORDS) text = text.replace(pattern, words);
  const words = named?.[2] === ' ' ? FIELD_WORDS[named[1] ?? ''] : undefined;
  return text === wire && words ? `${words} ${text}` : text;
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

/** What every create request takes from its form: the externalId (when kept) and the fee tier. */
export function referenceAndTier(v: { externalId: string; feeTier: FeeTier }) {
  const externalId = optional(v.externalId);
  return { ...(externalId ? { externalId } : {}), gasParams: { feeTier: v.feeTier } };
}

/** The part of a request sent from a vault (transfer, stake, delegation) that `sendFormShape` holds. */
export function sendRequestPart(v: SendFormValues) {
  const memo = optional(v.memo);
  return {
    source: { type: 'VAULT' as const, id: v.sourceVaultId },
    asset: v.asset,
    blockChain: v.blockChain,
    amount: v.amount.trim(),
    ...(memo ? { memo } : {}),
    ...referenceAndTier(v),
  };
}

/** The request's top-level names that `sendFormShape` holds, and the field that holds each. */
const SEND_FIELDS: Readonly<Record<string, keyof SendFormValues>> = {
  source: 'sourceVaultId',
  gasParams: 'feeTier',
  blockChain: 'blockChain',
  asset: 'asset',
  amount: 'amount',
  memo: 'memo',
  externalId: 'externalId',
};

/**
 * The send form's field a request path (or a server `fields` entry) is
 * about: the form's `own` names first, then the ones every send form has.
 */
export function sendFieldFor<F extends string>(
  path: string,
  own: Readonly<Partial<Record<string, F>>> = {},
): F | keyof SendFormValues | undefined {
  const first = head(path);
  // A server may name any path: only own keys count, never Object.prototype's.
  if (Object.hasOwn(own, first)) return own[first];
  return Object.hasOwn(SEND_FIELDS, first) ? SEND_FIELDS[first] : undefined;
}

/** Puts one message on a form field; a field already flagged keeps its first (clearer) one. */
export type IssueOn<F extends string> = (field: F, message: string) => void;

/**
 * A create form's schema, as every form builds it: its values as typed; its
 * own rules (the clearer words, in the order a person reads the form); the
 * externalId kept; the request it would send run through the contract's
 * schema, each problem on the field it came from; the amount against what the
 * pickers know; then the request itself, the resolver's output.
 */
export function createFormSchema<V extends { externalId: string; amount: string }, R>({
  values,
  request,
  toRequest,
  fieldFor,
  rules,
}: {
  values: z.ZodType<V, V>;
  /** The contract's create schema. */
  request: z.ZodType<R>;
  toRequest: (v: V) => R;
  /** The form field a request path is about. */
  fieldFor: (path: string, v: V) => (keyof V & string) | undefined;
  rules: (
    v: V,
    issue: IssueOn<keyof V & string>,
    /** Runs part of the request through a contract schema, as the whole request is run after the rules. */
    contract: (
      schema: z.ZodType<unknown>,
      part: unknown,
      fieldFor: (path: string) => string | undefined,
    ) => void,
    /** What the pickers know, as the amount is checked against it. */
    ctx: FormContext,
  ) => void;
}) {
  return (ctx: FormContext = {}) =>
    values
      .superRefine((v, refine) => {
        const flagged = new Set<string>();
        const issue: IssueOn<keyof V & string> = (field, message) => {
          if (flagged.has(field)) return;
          flagged.add(field);
          refine.addIssue({ code: 'custom', path: [field], message: sentence(message) });
        };
        rules(
          v,
          issue,
          (schema, part, partFieldFor) =>
            addContractIssues(schema, part, partFieldFor, flagged, refine),
          ctx,
        );
        if (!v.externalId.trim()) issue('externalId', EXTERNAL_ID_REQUIRED);
        addContractIssues(request, toRequest(v), (path) => fieldFor(path, v), flagged, refine);
        // Optional on a contract call; elsewhere an empty amount is already the contract's issue.
        const amount = optional(v.amount);
        if (amount && !flagged.has('amount'))
          checkAmountAgainst(amount, ctx, (message) => issue('amount', message));
      })
      .transform(toRequest);
}
