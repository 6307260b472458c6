import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { FlatQuoteRequest, IntentQuoteRequest, V2IntentInput } from '#contract/ramps.ts';
import type { BankAccountRow } from '../../../custody/sandbox/mappers.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';
import {
  bankParty,
  railName,
  renamedRefusal,
  resolveRoute,
  routeFromQuoteRequest,
  routeOfIntent,
} from './ramp-route.ts';

/**
 * A ramp's route as pure functions: the three SDK shapes read into one
 * request, fields named back as each client sent them, and the routes the
 * sandbox refuses before it reads anything. What needs the vaults and bank
 * accounts (chains, balances, approval) is the ramp route tests'.
 */

/** A database that must not be read: these answers come before any read. */
const noDatabase = new Proxy({} as Executor, {
  get() {
    throw new Error('the database was used');
  },
});

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('a ramp request read into one route, whichever SDK sent it', () => {
  it('a flat (G1) quote: its one paymentMethod is the rail of the fiat side, fields named bare', () => {
    const onRamp = FlatQuoteRequest.parse({
      category: 'ON_RAMP',
      fromAsset: 'USD',
      fromAmount: '100',
      toAsset: 'USDC',
      toChain: 'ETHEREUM',
      destination: { type: 'VAULT', id: 'v-1' },
      paymentMethod: 'US_WIRE',
    });
    expect(routeFromQuoteRequest(onRamp)).toMatchObject({
      prefix: '',
      category: 'ON_RAMP',
      fromRail: 'US_WIRE',
      toRail: undefined,
      destination: { type: 'VAULT', id: 'v-1' },
    });
    const offRamp = FlatQuoteRequest.parse({ ...onRamp, category: 'OFF_RAMP' });
    expect(routeFromQuoteRequest(offRamp)).toMatchObject({
      fromRail: undefined,
      toRail: 'US_WIRE',
    });
  });

  it('a G2 intent: its fields under intent., the quote’s sub-organization kept', () => {
    const body = IntentQuoteRequest.parse({
      intent: {
        fromAsset: 'USDC',
        fromAmount: '5',
        fromChain: 'ETHEREUM',
        toAsset: 'EUR',
        toPaymentRail: 'SEPA',
      },
      subOrgId: 'so-1',
    });
    expect(routeFromQuoteRequest(body)).toEqual({
      prefix: 'intent.',
      source: undefined,
      destination: undefined,
      fromAsset: 'USDC',
      fromAmount: '5',
      fromChain: 'ETHEREUM',
      fromRail: undefined,
      toAsset: 'EUR',
      toAmount: undefined,
      toChain: undefined,
      toRail: 'SEPA',
      subOrgId: 'so-1',
    });
    expect(routeOfIntent(body.intent).names).toEqual({});
  });

  it('a G3 intent: a side’s vaultId is its vault, and a refusal names the field G3 sent', () => {
    const intent = V2IntentInput.parse({
      input: { asset: 'USDC', amount: '5', vaultId: 'v-1' },
      output: { asset: 'USD' },
      source: undefined,
    });
    const { route, names } = routeOfIntent(intent);
    expect(route).toMatchObject({
      prefix: 'intent.',
      source: { type: 'VAULT', id: 'v-1' },
      fromAsset: 'USDC',
      fromAmount: '5',
      toAsset: 'USD',
    });
    expect(names['intent.source.id']).toBe('intent.input.vaultId');
    expect(names['intent.fromAmount']).toBe('intent.input.amount');

    const renamed = renamedRefusal(
      new ApiError(400, 'AMOUNT_PRECISION', 'intent.fromAmount: too many places', [
        { field: 'intent.fromAmount', message: 'too many places' },
      ]),
      names,
    );
    expect(renamed).toMatchObject({
      status: 400,
      code: 'AMOUNT_PRECISION',
      message: 'intent.input.amount: too many places',
      fields: [{ field: 'intent.input.amount', message: 'too many places' }],
    });
  });

  it('a G3 intent naming two vaults for one side is refused, naming both fields', () => {
    const intent = V2IntentInput.parse({
      input: { asset: 'USDC', amount: '5', vaultId: 'v-1' },
      output: { asset: 'USD' },
      source: { type: 'VAULT', id: 'v-2' },
    });
    expect(() => routeOfIntent(intent)).toThrow(
      'intent.input.vaultId: is v-1, but intent.source.id is v-2: name one vault',
    );
  });

  it('one name per rail, and a bank account shown with its number masked', () => {
    expect([railName('US_ACH'), railName('US_WIRE'), railName('SEPA')]).toEqual([
      'ACH',
      'WIRE',
      'SEPA',
    ]);
    const account = {
      id: 'ba-1',
      paymentMethod: 'US_ACH',
      accountName: 'Ops',
      bankName: 'First Bank',
      accountNumber: '000123456789',
      subOrgId: 'so-1',
      country: 'US',
    } as BankAccountRow;
    const party = bankParty(account, 'BANK_ACCOUNT');
    expect(party).toMatchObject({
      type: 'BANK_ACCOUNT',
      id: 'ba-1',
      subOrgId: 'so-1',
      paymentRail: 'ACH',
      bankDetails: { accountNumberMasked: '•••• 6789', paymentRail: 'ACH' },
    });
    expect(JSON.stringify(party)).not.toContain('000123456789');
  });
});

describe('the routes the sandbox refuses before it reads anything', () => {
  it('crypto to crypto, or a currency to itself, is not served: the field named is the side that cannot be', async () => {
    const toCrypto = await refusal(
      resolveRoute(noDatabase, 'org-1', { prefix: 'intent.', fromAsset: 'USDC', toAsset: 'USDT' }),
    );
    expect(toCrypto).toMatchObject({ status: 400, code: 'UNSUPPORTED_ROUTE' });
    expect(toCrypto.fields).toEqual([
      { field: 'intent.toAsset', message: expect.stringContaining('USDC → USDT is not served') },
    ]);

    const unknown = await refusal(
      resolveRoute(noDatabase, 'org-1', { prefix: '', fromAsset: 'BTC', toAsset: 'USD' }),
    );
    expect(unknown.fields?.map((f) => f.field)).toEqual(['fromAsset']);

    const sameCurrency = await refusal(
      resolveRoute(noDatabase, 'org-1', { prefix: '', fromAsset: 'EUR', toAsset: 'EUR' }),
    );
    expect(sameCurrency.fields?.map((f) => f.field)).toEqual(['toAsset']);
  });

  it('a flat quote whose category is not what its assets make it is refused as a mismatch', async () => {
    const error = await refusal(
      resolveRoute(noDatabase, 'org-1', {
        prefix: '',
        category: 'ON_RAMP',
        fromAsset: 'USDC',
        toAsset: 'USD',
      }),
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'QUOTE_MISMATCH',
      fields: [{ field: 'category', message: 'USDC → USD is an OFF_RAMP, not ON_RAMP' }],
    });
  });
});
