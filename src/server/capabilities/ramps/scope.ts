import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  isV2Intent,
  type IntentCreateRequest,
  type RampIntentInput,
  type RampPartyInput,
  type V2IntentInput,
} from '#contract/ramps.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { RampsPort } from './port.ts';

/**
 * The sub-organization scope of ramps (wiring/scoped-backend.ts's rule, for
 * this capability): a member restricted to some sub-organizations may quote
 * and execute only with vaults and bank accounts of those (anything else is
 * a 404, as if it did not exist), must send the intent with an execute so its
 * parties can be checked (the backend holds the intent to its quote, and the
 * sandbox refuses a quote priced for another sub-organization), marks
 * deposits and reads the ramps of a bank account only in scope. An API user
 * held to sub-organizations is held alike; one held to none passes through.
 */

function allowedIds(ctx: CustodyContext): string[] | null {
  return ctx.scope?.subOrgIds ?? null;
}

function inScope(ctx: CustodyContext, subOrgId: string | null | undefined): boolean {
  const ids = allowedIds(ctx);
  return !ids || (!!subOrgId && ids.includes(subOrgId));
}

function notFound(resource: string, id: string): ApiError {
  return new ApiError(404, ERROR_CODES.notFound, `No ${resource} with id "${id}"`);
}

/** An unknown id is the backend's to report, with its own message and field. */
async function unlessUnknown<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function rampsScope(inner: CustodyBackend): RampsPort {
  async function checkParties(
    ctx: CustodyContext,
    parties: Array<Pick<RampPartyInput, 'type' | 'id'> | undefined>,
    subOrgId: string | undefined,
  ): Promise<void> {
    if (!allowedIds(ctx)) return;
    if (subOrgId !== undefined && !inScope(ctx, subOrgId))
      throw notFound('sub-organization', subOrgId);
    for (const party of parties) {
      if (!party?.id) continue;
      if (party.type === 'VAULT') {
        const vault = await unlessUnknown(inner.getVault(ctx, party.id));
        if (vault && !inScope(ctx, vault.subOrgId)) throw notFound('vault', party.id);
      } else if (party.type === 'BANK_ACCOUNT' || party.type === 'EXTERNAL_BANK_ACCOUNT') {
        const account = await unlessUnknown(inner.getBankAccount(ctx, party.id));
        if (account && !inScope(ctx, account.subOrgId)) throw notFound('bank account', party.id);
      }
    }
  }

  // A G3 intent may name a side's vault by `vaultId` alone.
  const intentParties = (intent: RampIntentInput | V2IntentInput | undefined) => [
    intent?.source,
    intent?.destination,
    ...(intent && isV2Intent(intent)
      ? [intent.input.vaultId, intent.output.vaultId].map((id) =>
          id ? { type: 'VAULT' as const, id } : undefined,
        )
      : []),
  ];

  async function checkIntent(ctx: CustodyContext, body: IntentCreateRequest): Promise<void> {
    if (allowedIds(ctx) && !body.intent) {
      const message =
        'intent is required: you act in some sub-organizations only, so the intent the quote was priced for must be sent with it';
      throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'intent', message }]);
    }
    await checkParties(ctx, intentParties(body.intent), body.subOrgId);
  }

  return {
    async quoteRamp(ctx, body) {
      if ('intent' in body) await checkParties(ctx, intentParties(body.intent), body.subOrgId);
      else await checkParties(ctx, [body.source, body.destination], body.subOrgId);
      return inner.quoteRamp(ctx, body);
    },
    async quoteRampV2(ctx, body) {
      await checkParties(
        ctx,
        intentParties(body.intent),
        'subOrgId' in body ? body.subOrgId : undefined,
      );
      return inner.quoteRampV2(ctx, body);
    },
    async rampExchangeRates(ctx, query) {
      await checkParties(ctx, [{ type: 'VAULT', id: query.vaultId }], undefined);
      return inner.rampExchangeRates(ctx, query);
    },
    async createTransactionFromIntent(ctx, body) {
      await checkIntent(ctx, body);
      return inner.createTransactionFromIntent(ctx, body);
    },
    // Previewed as it would be executed: the same parties checked.
    async previewRampTransaction(ctx, body) {
      await checkIntent(ctx, body);
      return inner.previewRampTransaction(ctx, body);
    },
    async createRampTransaction(ctx, body) {
      await checkParties(ctx, [body.source, body.destination], undefined);
      return inner.createRampTransaction(ctx, body);
    },
    async quoteTrade(ctx, query) {
      await checkParties(ctx, [{ type: 'VAULT', id: query.vaultId }], undefined);
      return inner.quoteTrade(ctx, query);
    },
    // Previewed as it would be executed: the same vault checked.
    async previewTradeTransaction(ctx, body) {
      await checkParties(ctx, [{ type: 'VAULT', id: body.vaultId }], undefined);
      return inner.previewTradeTransaction(ctx, body);
    },
    async createTradeTransaction(ctx, body) {
      await checkParties(ctx, [{ type: 'VAULT', id: body.vaultId }], undefined);
      return inner.createTradeTransaction(ctx, body);
    },
    async markDepositDone(ctx, body) {
      const found = await inner.getTransaction(ctx, body.transactionId);
      if (!inScope(ctx, found.subOrgId)) throw notFound('transaction', body.transactionId);
      return inner.markDepositDone(ctx, body);
    },
    async listBankAccountRamps(ctx, bankAccountId, query) {
      const ids = allowedIds(ctx);
      if (!ids) return inner.listBankAccountRamps(ctx, bankAccountId, query);
      const account = await inner.getBankAccount(ctx, bankAccountId);
      if (!inScope(ctx, account.subOrgId)) throw notFound('bank account', bankAccountId);
      const narrowed =
        ids.length === 1 ? { ...query, subOrgId: ids[0] } : { ...query, subOrgIds: ids };
      const page = await inner.listBankAccountRamps(ctx, bankAccountId, narrowed);
      return { ...page, results: page.results.filter((row) => inScope(ctx, row.subOrgId)) };
    },
  };
}
