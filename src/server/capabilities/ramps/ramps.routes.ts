import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createTransactionFromIntent,
  executeTransactionIntent,
  markDepositDone,
  quoteRamp,
  quoteRampV2,
  quoteTrade,
  rampExchangeRates,
} from '#contract/endpoints/ramp-writes.ts';
import { listBankAccountRamps } from '#contract/endpoints/ramps.ts';
import {
  FlatQuoteRequest,
  IntentQuoteRequest,
  V2QuoteRequest,
  type RampQuoteRequest,
  type V2QuoteBody,
} from '#contract/ramps.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody, parseBody } from '../../custody/routes/parse-body.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/**
 * Ramps, FX and trades on the custody API: quotes in both SDK shapes,
 * executing a quote from an intent, and marking an on-ramp's deposit sent.
 * The G1 execute (`POST …/transactions/`, ON_RAMP or OFF_RAMP) and a
 * trade's (category SWAP) are the create endpoint's (transactions.routes.ts).
 */
export function rampRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  // A read sent as POST: not audited.
  mountCustody(app, quoteRamp, ({ body }, c) => backend.quoteRamp(custodyContext(c), body), {
    body: parseQuoteBody,
  });
  mountCustody(app, quoteRampV2, ({ body }, c) => backend.quoteRampV2(custodyContext(c), body), {
    body: parseV2QuoteBody,
  });
  // The older SDKs' exchange rates: the same quotes, a read.
  mountCustody(app, rampExchangeRates, ({ query }, c) =>
    backend.rampExchangeRates(custodyContext(c), query),
  );
  // A trade's price: a read.
  mountCustody(app, quoteTrade, ({ query }, c) => backend.quoteTrade(custodyContext(c), query));
  // intent/create/ (G2, G3) and the Python SDK's v2 execute/: one body, one backend call.
  for (const e of [createTransactionFromIntent, executeTransactionIntent])
    mountCustody(
      app,
      e,
      ({ body }, c) => backend.createTransactionFromIntent(custodyContext(c), body),
      { audit: { summary: (answer) => `Ramp ${describeRamp(answer)}` } },
    );
  mountCustody(
    app,
    markDepositDone,
    ({ body }, c) => backend.markDepositDone(custodyContext(c), body),
    {
      audit: {
        // A refusal names the transaction it was about (the body's, since the path has none).
        fromRequest: (body) => ({
          note: `transaction ${String((body as { transactionId?: unknown } | null)?.transactionId ?? 'not named')}`,
        }),
        summary: (answer) =>
          `Deposit of ${String(answer['id'] ?? 'a ramp')} marked sent, status ${String(answer['status'] ?? 'unknown')}`,
      },
    },
  );
  return app;
}

/** The console's own: the ramps of one bank account, for its page. */
export function bankAccountRampRoutes(backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    listBankAccountRamps,
    ({ params, query }, c) =>
      backend.listBankAccountRamps(custodyContext(c), params.bankAccountId, query),
  );
}

/**
 * Each shape parsed by its own schema, so a refusal names the fields of the
 * shape the client meant (a union would only say that neither matched).
 */
function parseQuoteBody(raw: unknown): RampQuoteRequest {
  const intent = raw !== null && typeof raw === 'object' && 'intent' in raw;
  return intent ? parseBody(IntentQuoteRequest, raw) : parseBody(FlatQuoteRequest, raw);
}

/** "OFF_RAMP 100 USDC ETHEREUM created, status PENDING", for the audit row. */
export function describeRamp(answer: Transaction | Record<string, unknown>): string {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const a = answer as Record<string, unknown>;
  const parts = ['category', 'amount', 'asset', 'blockChain'].map((f) => text(a[f]));
  return `${parts.filter(Boolean).join(' ')} created, status ${text(a['status']) ?? 'unknown'}`;
}

/** v2/quote/: G3's `{input, output, …}` intent, or the Python SDK's v2 (a G2 intent), each by its own schema. */
function parseV2QuoteBody(raw: unknown): V2QuoteBody {
  const intent =
    raw !== null && typeof raw === 'object' ? (raw as { intent?: unknown }).intent : null;
  const v2 =
    intent !== null && typeof intent === 'object' && ('input' in intent || 'output' in intent);
  return v2 ? parseBody(V2QuoteRequest, raw) : parseBody(IntentQuoteRequest, raw);
}
