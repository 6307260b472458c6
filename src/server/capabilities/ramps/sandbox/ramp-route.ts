import { and, eq } from 'drizzle-orm';
import { maskAccountNumber } from '#contract/bank-account-record.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, scale } from '#contract/decimal.ts';
import { ApiError } from '#contract/api-error.ts';
import type {
  FlatQuoteRequest,
  IntentQuoteRequest,
  RampIntentInput,
  RampKind,
  RampPartyInput,
  V2IntentInput,
} from '#contract/ramps.ts';
import { isV2Intent, RAIL_CURRENCIES } from '#contract/ramps.ts';
import type { Party } from '#contract/transaction.ts';
import { assets, bankAccounts } from '../../../db/schema/sandbox.ts';
import type { BankAccountRow, VaultRow } from '../../../custody/sandbox/mappers.ts';
import { resolveVault } from '../../../custody/sandbox/engine/parties.ts';
import { ENGINE_CODES, Problems } from '../../../custody/sandbox/engine/problems.ts';
import { isFiat, isRampCrypto } from './ramp-pricing.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * A ramp's route as both SDK generations ask for it (a flat G1 body or a G2
 * intent), resolved against the sandbox: which flow it is, the vault and the
 * bank account it involves, each checked, every broken rule named with the
 * field as the client sent it (`fromAmount` or `intent.fromAmount`).
 */

/** What a quote request says, whichever shape it came in. */
export interface RouteRequest {
  /**
   * How fields are named back: `''` for a flat body, `'intent.'` for an
   * intent, `'onRampRequestData.'` for the quote request a G1 create carries.
   */
  prefix: string;
  /** The G1 body's `category`, when it said one. */
  category?: 'ON_RAMP' | 'OFF_RAMP' | undefined;
  source?: RampPartyInput | undefined;
  destination?: RampPartyInput | undefined;
  fromAsset?: string | undefined;
  fromAmount?: string | undefined;
  fromChain?: string | undefined;
  fromRail?: string | undefined;
  toAsset?: string | undefined;
  toAmount?: string | undefined;
  toChain?: string | undefined;
  toRail?: string | undefined;
  subOrgId?: string | undefined;
}

export function routeFromIntent(intent: RampIntentInput, subOrgId?: string): RouteRequest {
  return {
    prefix: 'intent.',
    source: intent.source,
    destination: intent.destination,
    fromAsset: intent.fromAsset,
    fromAmount: intent.fromAmount,
    fromChain: intent.fromChain,
    fromRail: intent.fromPaymentRail,
    toAsset: intent.toAsset,
    toAmount: intent.toAmount,
    toChain: intent.toChain,
    toRail: intent.toPaymentRail,
    subOrgId,
  };
}

/**
 * G3 (the newest JS SDK): `{input, output, source?, destination?}`, the
 * chains and rails on the parties and a vault named by a side's `vaultId`
 * when no party names it. `names` says where each field the engine names
 * sits in this shape (`intent.fromAmount` is `intent.input.amount`).
 */
export function routeFromV2Intent(intent: V2IntentInput): {
  route: RouteRequest;
  names: Record<string, string>;
} {
  const names: Record<string, string> = { ...V2_FIELD_NAMES };
  const problems = new Problems();
  const side = (which: 'input' | 'output', party: RampPartyInput | undefined) => {
    const vaultId = intent[which].vaultId;
    const partyField = which === 'input' ? 'source' : 'destination';
    if (!vaultId) return party;
    if (party?.id && party.id !== vaultId)
      problems.add(
        `intent.${which}.vaultId`,
        ERROR_CODES.validation,
        `is ${vaultId}, but intent.${partyField}.id is ${party.id}: name one vault`,
      );
    if (party) return party;
    names[`intent.${partyField}.type`] = `intent.${which}.vaultId`;
    names[`intent.${partyField}.id`] = `intent.${which}.vaultId`;
    return { type: 'VAULT' as const, id: vaultId };
  };
  const source = side('input', intent.source);
  const destination = side('output', intent.destination);
  problems.throwIfAny();
  return {
    names,
    route: {
      prefix: 'intent.',
      source,
      destination,
      fromAsset: intent.input.asset,
      fromAmount: intent.input.amount,
      fromChain: intent.source?.chain,
      fromRail: intent.source?.paymentRail,
      toAsset: intent.output.asset,
      toAmount: intent.output.amount,
      toChain: intent.destination?.chain,
      toRail: intent.destination?.paymentRail,
    },
  };
}

/** Where G3 carries what the engine names after G2's fields. */
const V2_FIELD_NAMES: Readonly<Record<string, string>> = {
  'intent.fromAsset': 'intent.input.asset',
  'intent.fromAmount': 'intent.input.amount',
  'intent.toAsset': 'intent.output.asset',
  'intent.toAmount': 'intent.output.amount',
  'intent.fromChain': 'intent.source.chain',
  'intent.toChain': 'intent.destination.chain',
  'intent.fromPaymentRail': 'intent.source.paymentRail',
  'intent.toPaymentRail': 'intent.destination.paymentRail',
};

/** A refusal with its fields named as the client's shape names them (`names`), its message to match. */
export function renamedRefusal(error: unknown, names: Readonly<Record<string, string>>): unknown {
  if (!(error instanceof ApiError) || !error.fields) return error;
  const fields = error.fields.map((f) => ({ ...f, field: names[f.field] ?? f.field }));
  return new ApiError(
    error.status,
    error.code,
    fields.map((f) => `${f.field}: ${f.message}`).join('; '),
    fields,
  );
}

/** The route of a G2 or G3 intent, and how to name its fields back. */
export function routeOfIntent(intent: RampIntentInput | V2IntentInput): {
  route: RouteRequest;
  names: Record<string, string>;
} {
  return isV2Intent(intent)
    ? routeFromV2Intent(intent)
    : { route: routeFromIntent(intent), names: {} };
}

export function routeFromQuoteRequest(body: IntentQuoteRequest | FlatQuoteRequest): RouteRequest {
  if ('intent' in body) return routeFromIntent(body.intent, body.subOrgId);
  // G1's one `paymentMethod` is the rail of the fiat side.
  return {
    prefix: '',
    category: body.category,
    source: body.source,
    destination: body.destination,
    fromAsset: body.fromAsset,
    fromAmount: body.fromAmount,
    fromChain: body.fromChain,
    fromRail: body.category === 'ON_RAMP' ? body.paymentMethod : undefined,
    toAsset: body.toAsset,
    toAmount: body.toAmount,
    toChain: body.toChain,
    toRail: body.category === 'OFF_RAMP' ? body.paymentMethod : undefined,
    subOrgId: body.subOrgId,
  };
}

/** G1 names a bank account's rail (`US_ACH`), G2 an intent's (`ACH`): one name per rail. */
export function railName(rail: string): string {
  if (rail === 'US_ACH') return 'ACH';
  if (rail === 'US_WIRE') return 'WIRE';
  return rail;
}

/** The rail a payer's bank deposit takes by default, by currency (G2's names). */
export const DEFAULT_DEPOSIT_RAIL: Readonly<Record<string, string>> = {
  USD: 'ACH',
  EUR: 'SEPA',
  GBP: 'SWIFT',
};

/** A customer's bank account as a ramp shows it: masked, with its rail. */
export function bankParty(account: BankAccountRow, type: string): Party {
  const rail = railName(account.paymentMethod);
  return {
    type,
    id: account.id,
    name: `${account.accountName} (${account.bankName})`,
    ...(account.subOrgId ? { subOrgId: account.subOrgId } : {}),
    paymentRail: rail,
    bankDetails: {
      bankAccountId: account.id,
      bankName: account.bankName,
      accountName: account.accountName,
      beneficiaryName: account.accountName,
      accountNumberMasked: maskAccountNumber(account.accountNumber),
      paymentRail: rail,
      country: account.country,
    },
  };
}

export interface ResolvedRoute {
  kind: RampKind;
  subOrgId: string | null;
  source: Party;
  destination: Party;
  fromAsset: string;
  fromChain: string | null;
  toAsset: string;
  toChain: string | null;
  /** The fiat side's rail (G2's names); an FX's is the payout's, to the approved account. */
  fiatRail: string;
  /** Whether the client asked for that rail (an account named later must then use it), or it is the currency's usual one. */
  railAsked?: boolean | undefined;
  /** An FX's deposit rail, from the payer's bank (an on-ramp's is `fiatRail`). */
  depositRail?: string | undefined;
  fromAmount?: string | undefined;
  toAmount?: string | undefined;
  vault: VaultRow | null;
  bankAccount: BankAccountRow | null;
  /** The ids as the client named them, to hold an execute's body to its quote. */
  sourceId: string | null;
  destinationId: string | null;
}

function kindOf(fromAsset: string, toAsset: string): RampKind | null {
  if (isRampCrypto(fromAsset) && isFiat(toAsset)) return 'OFF_RAMP';
  if (isFiat(fromAsset) && isRampCrypto(toAsset)) return 'ON_RAMP';
  if (isFiat(fromAsset) && isFiat(toAsset) && fromAsset !== toAsset) return 'FX';
  return null;
}

const SERVED =
  'the sandbox ramps USDC and USDT to and from USD, EUR and GBP, and exchanges those currencies';

/** Resolves a quote request's route, or throws a 400 naming every broken rule. */
export async function resolveRoute(
  db: Executor,
  orgId: string,
  request: RouteRequest,
): Promise<ResolvedRoute> {
  const p = request.prefix;
  const problems = new Problems();
  const fromAsset = request.fromAsset ?? '';
  const toAsset = request.toAsset ?? '';
  const kind = kindOf(fromAsset, toAsset);
  if (!kind) {
    const field = isFiat(fromAsset) || isRampCrypto(fromAsset) ? 'toAsset' : 'fromAsset';
    problems.add(
      `${p}${field}`,
      ERROR_CODES.unsupportedRoute,
      `${fromAsset} → ${toAsset} is not served: ${SERVED}`,
    );
    problems.throwIfAny();
    throw new Error('unreachable');
  }
  if (request.category && request.category !== kind)
    problems.add(
      'category',
      ERROR_CODES.quoteMismatch,
      `${fromAsset} → ${toAsset} is ${kind === 'FX' ? 'an FX' : `an ${kind}`}, not ${request.category}`,
    );
  problems.throwIfAny();
  if (kind === 'FX') return resolveFxRoute(db, orgId, request, problems);

  const cryptoSide = kind === 'OFF_RAMP' ? 'from' : 'to';
  const chainField = `${p}${cryptoSide}Chain`;
  const chainValue = cryptoSide === 'from' ? request.fromChain : request.toChain;
  const cryptoAsset = cryptoSide === 'from' ? fromAsset : toAsset;
  const chain = chainValue ? chainInfo(chainValue) : undefined;
  if (!chainValue)
    problems.add(chainField, ERROR_CODES.validation, 'is required: the chain of the digital asset');
  else if (!chain)
    problems.add(chainField, ENGINE_CODES.unsupportedChain, `${chainValue} is not a chain here`);
  else {
    const [known] = await db
      .select({ decimals: assets.decimals })
      .from(assets)
      .where(and(eq(assets.symbol, cryptoAsset), eq(assets.blockChain, chain.value)))
      .limit(1);
    if (!known)
      problems.add(
        `${p}${cryptoSide}Asset`,
        ENGINE_CODES.unknownAsset,
        `${cryptoAsset} is not an asset on ${chain.value}`,
      );
  }
  for (const side of ['from', 'to'] as const) {
    const amount = side === 'from' ? request.fromAmount : request.toAmount;
    const asset = side === 'from' ? fromAsset : toAsset;
    const places = isFiat(asset) ? 2 : 6;
    if (amount !== undefined && scale(add(amount, '0')) > places)
      problems.add(
        `${p}${side}Amount`,
        ENGINE_CODES.amountPrecision,
        `${asset} is written to ${places} decimal places; ${amount} has more`,
      );
  }
  const vaultSide = kind === 'OFF_RAMP' ? 'source' : 'destination';
  const bankSide = kind === 'OFF_RAMP' ? 'destination' : 'source';
  const vaultParty = request[vaultSide];
  const bankPartySent = request[bankSide];

  let vault: VaultRow | null = null;
  let vaultAnswer: Party | undefined;
  if (!vaultParty) {
    problems.add(
      `${p}${vaultSide}`,
      ERROR_CODES.validation,
      `is required: the vault ${kind === 'OFF_RAMP' ? 'paying' : 'receiving'}`,
    );
  } else if (vaultParty.type !== 'VAULT') {
    problems.add(
      `${p}${vaultSide}.type`,
      kind === 'OFF_RAMP' ? ENGINE_CODES.sourceType : ENGINE_CODES.destinationType,
      `must be VAULT on an ${kind}, not ${vaultParty.type}`,
    );
  } else if (chain && vaultParty.id) {
    const found = await resolveVault(
      db,
      problems,
      `${p}${vaultSide}.id`,
      orgId,
      vaultParty.id,
      chain,
    );
    if (found) {
      vault = found.vault;
      vaultAnswer = found.party;
    }
  }

  // The fiat side's rail: the one asked for, which must be the bank account's when there is one.
  const fiat = kind === 'OFF_RAMP' ? toAsset : fromAsset;
  const railField =
    kind === 'OFF_RAMP'
      ? p
        ? 'intent.toPaymentRail'
        : 'paymentMethod'
      : p
        ? 'intent.fromPaymentRail'
        : 'paymentMethod';
  const asked = kind === 'OFF_RAMP' ? request.toRail : request.fromRail;
  let fiatRail = asked ? railName(asked) : (DEFAULT_DEPOSIT_RAIL[fiat] ?? 'SWIFT');
  if (asked === 'BLOCKCHAIN')
    problems.add(
      railField,
      ERROR_CODES.railMismatch,
      `the ${fiat} side of a ramp is paid by bank, not BLOCKCHAIN`,
    );

  // An off-ramp may be quoted on its source alone: its bank account is then named, and checked, at execute.
  let account: BankAccountRow | null = null;
  let bankAnswer: Party | undefined;
  const bankField = `${p}${bankSide}`;
  if (bankPartySent?.type === 'VAULT' && kind === 'ON_RAMP') {
    problems.add(
      `${bankField}.type`,
      ERROR_CODES.unsupportedRoute,
      `the sandbox holds no fiat in vaults: leave it out, or send EXTERNAL_BANK_ACCOUNT (the payer's bank) or BANK_ACCOUNT with an approved account's id`,
    );
  } else if (bankPartySent && (bankPartySent.id || !isBankType(bankPartySent.type))) {
    const checked = await checkRampAccount(db, problems, {
      orgId,
      field: bankField,
      party: bankPartySent,
      kind,
      fiat,
      askedRail: asked,
      railField,
      currencyField: `${p}${kind === 'OFF_RAMP' ? 'toAsset' : 'fromAsset'}`,
      vault,
    });
    if (checked) {
      account = checked.account;
      bankAnswer = checked.party;
      fiatRail = checked.rail;
    }
  }
  const subOrgId = vault?.subOrgId ?? null;
  if (request.subOrgId && vault && request.subOrgId !== subOrgId)
    problems.add(
      'subOrgId',
      ERROR_CODES.validation,
      `vault "${vault.vaultName}" belongs to ${subOrgId ? `sub-organization ${subOrgId}` : 'the organization itself'}, not ${request.subOrgId}`,
    );
  problems.throwIfAny();
  if (!vault || !vaultAnswer || !chain) throw new Error('resolveRoute: a vault was not resolved');

  const payerBank: Party = bankAnswer ?? {
    type: 'EXTERNAL_BANK_ACCOUNT',
    name: "The payer's bank",
    paymentRail: fiatRail,
  };
  const paidAccount: Party = bankAnswer ?? {
    type: 'BANK_ACCOUNT',
    name: 'The approved bank account named when it is executed',
    paymentRail: fiatRail,
  };
  return {
    kind,
    subOrgId,
    source: kind === 'OFF_RAMP' ? vaultAnswer : payerBank,
    destination: kind === 'OFF_RAMP' ? paidAccount : vaultAnswer,
    fromAsset,
    fromChain: kind === 'OFF_RAMP' ? chain.value : null,
    toAsset,
    toChain: kind === 'OFF_RAMP' ? null : chain.value,
    fiatRail,
    railAsked: asked !== undefined,
    fromAmount: request.fromAmount,
    toAmount: request.toAmount,
    vault,
    bankAccount: account,
    sourceId: request.source?.id ?? null,
    destinationId: request.destination?.id ?? null,
  };
}

function isBankType(type: string): boolean {
  return type === 'BANK_ACCOUNT' || type === 'EXTERNAL_BANK_ACCOUNT';
}

/**
 * The approved bank account a ramp names (an off-ramp's paid, an on-ramp's
 * payer), checked wherever it is named, at quote or at execute: its type,
 * that it exists here and is APPROVED, that its rail is the one asked for
 * and carries the currency, and that it belongs to the vault's
 * sub-organization. Each broken rule is added to `problems`; null then.
 */
export async function checkRampAccount(
  db: Executor,
  problems: Problems,
  input: {
    orgId: string;
    /** `destination` or `intent.source`: the party's field as the client sent it. */
    field: string;
    party: Pick<RampPartyInput, 'type' | 'id'>;
    kind: 'OFF_RAMP' | 'ON_RAMP';
    fiat: string;
    /** The rail the client asked for, if it did. */
    askedRail: string | undefined;
    /** Where a rail the account does not use, and the currency it does not carry, are named. */
    railField: string;
    currencyField: string;
    vault: Pick<VaultRow, 'vaultName' | 'subOrgId'> | null;
  },
): Promise<{ account: BankAccountRow; party: Party; rail: string } | null> {
  const { field, party, kind, fiat, askedRail, vault } = input;
  if (!isBankType(party.type)) {
    problems.add(
      `${field}.type`,
      kind === 'OFF_RAMP' ? ENGINE_CODES.destinationType : ENGINE_CODES.sourceType,
      `must be BANK_ACCOUNT (or EXTERNAL_BANK_ACCOUNT) with an approved bank account's id, not ${party.type}`,
    );
    return null;
  }
  if (!party.id) {
    problems.add(`${field}.id`, ERROR_CODES.validation, 'is required: the approved bank account');
    return null;
  }
  const account = await findBankAccount(db, problems, `${field}.id`, input.orgId, party.id);
  if (!account) return null;
  const rail = railName(account.paymentMethod);
  let ok = true;
  if (askedRail && railName(askedRail) !== rail) {
    ok = false;
    problems.add(
      input.railField,
      ERROR_CODES.railMismatch,
      `bank account "${account.accountName}" is paid by ${account.paymentMethod}, not ${askedRail}`,
    );
  }
  if (!RAIL_CURRENCIES[account.paymentMethod].includes(fiat)) {
    ok = false;
    problems.add(
      input.currencyField,
      ERROR_CODES.unsupportedRoute,
      `bank account "${account.accountName}" (${account.paymentMethod}) takes ${RAIL_CURRENCIES[account.paymentMethod].join(', ')}, not ${fiat}`,
    );
  }
  if (vault && (account.subOrgId ?? null) !== (vault.subOrgId ?? null)) {
    ok = false;
    problems.add(
      `${field}.id`,
      ERROR_CODES.bankAccountOtherSubOrg,
      `bank account "${account.accountName}" belongs to ${account.subOrgId ? `sub-organization ${account.subOrgId}` : 'the organization itself'}, vault "${vault.vaultName}" to ${vault.subOrgId ? `sub-organization ${vault.subOrgId}` : 'the organization itself'}: a ramp stays within one`,
    );
  }
  return ok ? { account, party: bankParty(account, party.type), rail } : null;
}

async function findBankAccount(
  db: Executor,
  problems: Problems,
  field: string,
  orgId: string,
  id: string,
): Promise<BankAccountRow | null> {
  const [account] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.orgId, orgId), eq(bankAccounts.id, id)))
    .limit(1);
  if (!account) {
    problems.add(
      field,
      ERROR_CODES.unknownBankAccount,
      `no bank account with id "${id}" in this organization`,
    );
    return null;
  }
  if (account.status !== 'APPROVED') {
    problems.add(
      field,
      ERROR_CODES.bankAccountNotApproved,
      `bank account "${account.accountName}" is ${account.status}; only an APPROVED bank account takes part in a ramp`,
    );
    return null;
  }
  return account;
}

/** An FX's deposit rail: the one asked for, else the currency's usual one; never a blockchain. */
function depositRailOf(
  request: RouteRequest,
  problems: Problems,
  field: string,
  currency: string,
): string {
  const asked = request.fromRail;
  if (asked === 'BLOCKCHAIN')
    problems.add(field, ERROR_CODES.railMismatch, `${currency} is paid in by bank, not BLOCKCHAIN`);
  return asked ? railName(asked) : (DEFAULT_DEPOSIT_RAIL[currency] ?? 'SWIFT');
}

/**
 * An FX (fiat to fiat): money from the payer's bank (an `EXTERNAL_BANK_ACCOUNT`,
 * or no source at all) exchanged and paid to an APPROVED bank account, which
 * must carry the currency paid out. No vault and no chain take part: its
 * sub-organization is the account's.
 */
async function resolveFxRoute(
  db: Executor,
  orgId: string,
  request: RouteRequest,
  problems: Problems,
): Promise<ResolvedRoute> {
  const p = request.prefix;
  const fromAsset = request.fromAsset ?? '';
  const toAsset = request.toAsset ?? '';
  for (const side of ['from', 'to'] as const) {
    const chain = side === 'from' ? request.fromChain : request.toChain;
    if (chain)
      problems.add(
        `${p}${side}Chain`,
        ERROR_CODES.unsupportedRoute,
        `an FX (${fromAsset} → ${toAsset}) moves no digital asset: leave ${side}Chain out`,
      );
    const amount = side === 'from' ? request.fromAmount : request.toAmount;
    if (amount !== undefined && scale(add(amount, '0')) > 2)
      problems.add(
        `${p}${side}Amount`,
        ENGINE_CODES.amountPrecision,
        `${side === 'from' ? fromAsset : toAsset} is written to 2 decimal places; ${amount} has more`,
      );
  }
  const source = request.source;
  if (source && source.type !== 'EXTERNAL_BANK_ACCOUNT')
    problems.add(
      `${p}source.type`,
      source.type === 'VAULT' ? ERROR_CODES.unsupportedRoute : ENGINE_CODES.sourceType,
      source.type === 'VAULT'
        ? 'the sandbox holds no fiat in vaults: an FX is paid in from your bank; send EXTERNAL_BANK_ACCOUNT or leave the source out'
        : `must be EXTERNAL_BANK_ACCOUNT (the payer's bank) on an FX, not ${source.type}`,
    );
  else if (source?.id)
    problems.add(
      `${p}source.id`,
      ERROR_CODES.unsupportedRoute,
      "an FX is paid in from the payer's bank by a deposit: leave the id out (the deposit instructions follow its approval)",
    );
  const depositRail = depositRailOf(
    request,
    problems,
    p ? 'intent.fromPaymentRail' : 'paymentMethod',
    fromAsset,
  );

  const destination = request.destination;
  const bankField = `${p}destination`;
  let account: BankAccountRow | null = null;
  if (!destination)
    problems.add(bankField, ERROR_CODES.validation, 'is required: the approved bank account paid');
  else if (destination.type !== 'BANK_ACCOUNT' && destination.type !== 'EXTERNAL_BANK_ACCOUNT')
    problems.add(
      `${bankField}.type`,
      ENGINE_CODES.destinationType,
      `must be BANK_ACCOUNT with an approved bank account's id on an FX, not ${destination.type}`,
    );
  else if (!destination.id)
    problems.add(
      `${bankField}.id`,
      ERROR_CODES.validation,
      'is required: the approved bank account paid',
    );
  else account = await findBankAccount(db, problems, `${bankField}.id`, orgId, destination.id);

  let payoutRail = request.toRail ? railName(request.toRail) : undefined;
  if (account) {
    const accountRail = railName(account.paymentMethod);
    if (payoutRail && payoutRail !== accountRail)
      problems.add(
        p ? 'intent.toPaymentRail' : 'paymentMethod',
        ERROR_CODES.railMismatch,
        `bank account "${account.accountName}" is paid by ${account.paymentMethod}, not ${request.toRail ?? ''}`,
      );
    payoutRail = accountRail;
    if (!RAIL_CURRENCIES[account.paymentMethod].includes(toAsset))
      problems.add(
        `${p}toAsset`,
        ERROR_CODES.unsupportedRoute,
        `bank account "${account.accountName}" (${account.paymentMethod}) takes ${RAIL_CURRENCIES[account.paymentMethod].join(', ')}, not ${toAsset}`,
      );
    const subOrgId = account.subOrgId ?? null;
    if (request.subOrgId && request.subOrgId !== subOrgId)
      problems.add(
        'subOrgId',
        ERROR_CODES.bankAccountOtherSubOrg,
        `bank account "${account.accountName}" belongs to ${subOrgId ? `sub-organization ${subOrgId}` : 'the organization itself'}, not ${request.subOrgId}`,
      );
  }
  problems.throwIfAny();
  if (!account || !destination) throw new Error('resolveFxRoute: no bank account was resolved');
  return {
    kind: 'FX',
    subOrgId: account.subOrgId ?? null,
    source: { type: 'EXTERNAL_BANK_ACCOUNT', name: "The payer's bank", paymentRail: depositRail },
    destination: bankParty(account, destination.type),
    fromAsset,
    fromChain: null,
    toAsset,
    toChain: null,
    fiatRail: payoutRail ?? railName(account.paymentMethod),
    depositRail,
    fromAmount: request.fromAmount,
    toAmount: request.toAmount,
    vault: null,
    bankAccount: account,
    sourceId: null,
    destinationId: destination.id ?? null,
  };
}
