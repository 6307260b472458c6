import { endpoint } from '../endpoint.ts';
import {
  IntentCreateRequest,
  MarkDepositDoneRequest,
  RampExchangeRatesQuery,
  RampExchangeRatesResponse,
  RampQuoteRequest,
  RampQuoteResponse,
  V2QuoteBody,
  V2QuoteResponse,
} from '../ramps.ts';
import { Transaction } from '../transaction-record.ts';
import { GetTradeQuoteResponse, TradeQuoteQuery } from '../trades.ts';

/**
 * Ramps and FX: quotes, executing one from an intent, and the
 * payer's word that a deposit is on its way. A G1 ramp executes through the
 * create endpoint (`transaction-writes.ts`, category ON_RAMP or OFF_RAMP with
 * a `quoteId`). Their bodies are the forms' rules (classic zod): this module
 * loads with the Convert page.
 */

export const quoteRamp = endpoint({
  method: 'POST',
  path: '/api/external/transactions/quote/',
  summary:
    'Prices an off-ramp, on-ramp or FX with every provider, best first; each quote is used once, before it expires (a read sent as POST).',
  action: 'quote ramps',
  permission: 'initiate',
  audit: false,
  body: RampQuoteRequest,
  answer: RampQuoteResponse,
});

export const quoteRampV2 = endpoint({
  method: 'POST',
  path: '/api/external/transactions/v2/quote/',
  summary:
    'Prices a conversion from the newest JS SDK’s intent {input, output, source?, destination?} ({quotes}, each with input, output and expiresAt), or from the Python SDK’s v2 get_quote (the G2 intent; a bare list).',
  action: 'quote ramps',
  permission: 'initiate',
  audit: false,
  body: V2QuoteBody,
  answer: V2QuoteResponse,
});

export const createTransactionFromIntent = endpoint({
  method: 'POST',
  path: '/api/external/transactions/intent/create/',
  summary:
    'Executes a quote: a PENDING ramp or FX transaction with a change request; an off-ramp holds its amount from now until it ends.',
  action: 'create transactions',
  permission: 'initiate',
  audit: { action: 'transaction.create', entityType: 'TRANSACTION' },
  body: IntentCreateRequest,
  answer: Transaction,
});

export const markDepositDone = endpoint({
  method: 'POST',
  path: '/api/external/transactions/mark_deposit_done/',
  summary:
    'Says the money of an approved on-ramp or FX is on its way to the deposit instructions: the transaction moves on.',
  action: 'mark deposits sent',
  permission: 'initiate',
  audit: { action: 'transaction.mark_deposit_done', entityType: 'TRANSACTION' },
  body: MarkDepositDoneRequest,
  answer: Transaction,
});

export const executeTransactionIntent = endpoint({
  method: 'POST',
  path: '/api/external/transactions/execute/',
  summary:
    'The Python SDK’s v2 create_transaction_from_intent: the same body and answer as intent/create/ (forwarded there in upstream mode).',
  action: 'create transactions',
  permission: 'initiate',
  audit: { action: 'transaction.create', entityType: 'TRANSACTION' },
  body: IntentCreateRequest,
  answer: Transaction,
});

export const quoteTrade = endpoint({
  method: 'GET',
  path: '/api/external/transactions/trade_quote/',
  summary:
    'Prices a swap of one asset a vault holds into another with every provider, best first ({tradeRequestData, tradeResponseDataList}); each answer is executed once, before it expires, by a create with category SWAP.',
  action: 'quote trades',
  permission: 'initiate',
  audit: false,
  query: TradeQuoteQuery,
  answer: GetTradeQuoteResponse,
});

export const rampExchangeRates = endpoint({
  method: 'GET',
  path: '/api/external/transactions/ramp_exchange_rates/',
  summary:
    'The older SDKs’ getRampExchangeRates: an on-ramp or off-ramp priced with every provider, best first, as a bare list of {quoteId, convertedAmount, fees, source}; each is a quote, executed once before it expires.',
  action: 'quote ramps',
  permission: 'initiate',
  audit: false,
  query: RampExchangeRatesQuery,
  answer: RampExchangeRatesResponse,
});
