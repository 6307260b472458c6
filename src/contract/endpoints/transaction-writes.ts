import { endpoint } from '../endpoint.ts';
import { CreateTransactionOrRampRequest } from '../ramps.ts';
import { EstimatedFeeResponse, Transaction } from '../transaction-record.ts';
import { EstimateFeeRequest, ReplaceTransactionRequest } from '../transaction.ts';

/**
 * Writing transactions (custody API endpoints 6–8). Their bodies are the
 * forms' rules (classic zod, with big.js and the address rules): this module
 * loads with the pages that send them, never with the first load.
 */

export const createTransaction = endpoint({
  method: 'POST',
  path: '/api/external/transactions/',
  summary:
    "Creates a transaction, PENDING with a change request; the body's category selects transfer, contract call, stake or delegation, or (ON_RAMP, OFF_RAMP with a quoteId) executes a ramp quote.",
  action: 'create transactions',
  permission: 'initiate',
  audit: { action: 'transaction.create', entityType: 'TRANSACTION' },
  body: CreateTransactionOrRampRequest,
  // 200, not 201: the provider's SDKs accept any 2xx and the description only says "returns a Transaction".
  answer: Transaction,
});

export const replaceTransaction = endpoint({
  method: 'POST',
  path: '/api/external/transactions/replace_transaction/',
  summary: 'Replaces a SUBMITTED transaction (same nonce, a higher fee).',
  action: 'replace transactions',
  permission: 'initiate',
  audit: { action: 'transaction.replace', entityType: 'TRANSACTION' },
  body: ReplaceTransactionRequest,
  answer: Transaction,
});

export const estimateFee = endpoint({
  method: 'POST',
  path: '/api/external/transactions/estimate_fee/',
  summary: 'The fee of a transaction at each tier, without creating it (a read sent as POST).',
  action: 'estimate transaction fees',
  permission: 'initiate',
  audit: false,
  body: EstimateFeeRequest,
  answer: EstimatedFeeResponse,
});

export const cancelScheduledTransaction = endpoint({
  method: 'POST',
  path: '/api/console/transactions/:transactionId/cancel/',
  summary:
    'Calls off a scheduled transfer (one created with executeAt) before its time, approved or not: it ends FAILED, its error saying who cancelled it and when, and nothing moves. Refused (409 SCHEDULE_DUE) once its time has come, and for a transaction never scheduled (409 NOT_SCHEDULED). The custody API has no cancel: upstream, 409 SANDBOX_ONLY.',
  action: 'cancel scheduled transfers',
  permission: 'initiate',
  audit: { action: 'transaction.cancel', entityType: 'TRANSACTION', entityParam: 'transactionId' },
  resource: 'transaction',
  answer: Transaction,
});
