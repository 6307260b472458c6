import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';

/**
 * The Python SDK's create_ramp_transaction: an ON_RAMP or OFF_RAMP create
 * carrying the vault (`vaultId`), the trade quote's request and the answer
 * chosen (`tradeRequestData`, `tradeResponseData`, as get_trade_quote gave
 * them), `paymentMethod` and `toBlockChain`. It is the flat create told
 * another way: the vault is the credited side of an on-ramp and the paying
 * side of an off-ramp, the answer's `quoteId` the quote executed, and the
 * request and answer are held to that quote as a flat create's copies are.
 * `names` names each refusal's field as the client sent it.
 */

type Body = Record<string, unknown>;

const given = (value: unknown) => (value === null ? undefined : value);
const record = (value: unknown): Body | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : undefined;
const defined = (fields: Body): Body =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => given(v) !== undefined));

function refused(field: string, message: string): ApiError {
  return new ApiError(400, ERROR_CODES.validation, `${field}: ${message}`, [{ field, message }]);
}

export function fromTradeQuoteCreate(
  raw: unknown,
): { body: Body; names: Record<string, string> } | undefined {
  const sent = record(raw);
  const category = sent?.['category'];
  if (!sent || (category !== 'ON_RAMP' && category !== 'OFF_RAMP')) return undefined;
  if (
    given(sent['tradeRequestData']) === undefined &&
    given(sent['tradeResponseData']) === undefined
  )
    return undefined;
  const {
    vaultId,
    tradeRequestData,
    tradeResponseData,
    paymentMethod,
    toBlockChain,
    operationMessage,
    ...rest
  } = sent;
  if (given(operationMessage) !== undefined)
    throw refused(
      'operationMessage',
      'is not taken: the sandbox signs a ramp itself once it is approved',
    );
  const request = record(tradeRequestData) ?? {};
  const answer = record(tradeResponseData) ?? {};
  const quotedTo = given(request['toBlockchain']);
  if (given(toBlockChain) !== undefined && quotedTo !== undefined && toBlockChain !== quotedTo)
    throw refused(
      'toBlockChain',
      `is "${String(toBlockChain)}" but tradeRequestData.toBlockchain is "${String(quotedTo)}": both name the chain credited`,
    );
  const vaultSide = category === 'ON_RAMP' ? 'destination' : 'source';
  const names: Record<string, string> = {
    onRampRequestData: 'tradeRequestData',
    'onRampRequestData.category': 'category',
    'onRampRequestData.fromAsset': 'tradeRequestData.fromAsset',
    'onRampRequestData.fromAmount': 'tradeRequestData.fromAmount',
    'onRampRequestData.fromChain': 'tradeRequestData.blockChain',
    'onRampRequestData.toAsset': 'tradeRequestData.toAsset',
    'onRampRequestData.toChain':
      quotedTo === undefined ? 'toBlockChain' : 'tradeRequestData.toBlockchain',
    'onRampRequestData.paymentMethod': 'paymentMethod',
    onRampResponseData: 'tradeResponseData',
    'onRampResponseData.quoteId': 'tradeResponseData.quoteId',
    'onRampResponseData.finalToAmount': 'tradeResponseData.finalToAmount',
  };
  const vault = given(vaultId);
  const side = given(rest[vaultSide]);
  if (vault !== undefined && side !== undefined)
    throw refused('vaultId', `names the vault, and so does ${vaultSide}: send one of them`);
  if (vault !== undefined) {
    rest[vaultSide] = { type: 'VAULT', id: vault };
    for (const field of [vaultSide, `${vaultSide}.id`, `${vaultSide}.type`])
      names[field] = 'vaultId';
  }
  return {
    body: {
      ...rest,
      onRampRequestData: defined({
        category,
        fromAsset: request['fromAsset'],
        fromAmount: request['fromAmount'],
        fromChain: request['blockChain'],
        toAsset: request['toAsset'],
        toChain: quotedTo ?? toBlockChain,
        paymentMethod,
      }),
      onRampResponseData: defined({
        quoteId: answer['quoteId'],
        finalToAmount: answer['finalToAmount'],
      }),
    },
    names,
  };
}

/** A refusal with its fields named as the client sent them. */
export function renamed(error: unknown, names: Readonly<Record<string, string>>): unknown {
  if (!(error instanceof ApiError) || !error.fields) return error;
  const fields = error.fields.map((f) => ({ ...f, field: names[f.field] ?? f.field }));
  return new ApiError(
    error.status,
    error.code,
    fields.map((f) => `${f.field}: ${f.message}`).join('; '),
    fields,
  );
}
