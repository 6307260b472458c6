import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ERROR_CODES } from '#contract/common.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Asset, Vault } from '#contract/reference.ts';
import { MAX_SLIPPAGE_PERCENT } from '#contract/trades.ts';
import { MEMO_MAX_LENGTH } from '#contract/transaction.ts';
import { ApprovalCardView } from '../../../components/approval-card.tsx';
import { FormActions, FormCard, FormError, SubmitButton } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useCreateSwap, useQuoteTrade, useSwapCardPreview } from '../api/swap.ts';
import { vaultOptions } from '../convert-options.ts';
import { QuoteChoices } from './quote-list.tsx';
import { describeExpiry, describeWait, isExpiredNow, secondsLeft } from '../quote-text.ts';
import {
  splitFrom,
  swapBody,
  swapDefaults,
  swapProblems,
  swapSourceOptions,
  swapTargetOptions,
  tradeQuery,
  type SwapField,
  type SwapValues,
  type TradeQuote,
} from '../swap.ts';

/** A refusal that means the quote can no longer be used: ask for a new one, never resend the old. */
const STALE_QUOTE = new Set<string>([
  ERROR_CODES.quoteExpired,
  ERROR_CODES.quoteAlreadyUsed,
  ERROR_CODES.quoteNotFound,
]);

/** The field of this form a refusal names (the SDK's names of the quote request). */
const FIELD_OF: Readonly<Record<string, SwapField>> = {
  vaultId: 'vaultId',
  fromAsset: 'from',
  blockChain: 'from',
  toAsset: 'toAsset',
  toBlockchain: 'toAsset',
  fromAmount: 'amount',
  slippage: 'slippage',
};

const FIELD_ORDER: readonly SwapField[] = ['vaultId', 'from', 'toAsset', 'amount', 'slippage'];

const expiresAtOf = (quote: TradeQuote) => ({ expiresAt: quote.quotesValidTill });

const amountText = (amount: string | undefined, asset: string | undefined) =>
  amount ? `${formatAmount(amount)} ${asset ?? ''}`.trim() : '—';

/**
 * A swap from Convert: the vault, what it sells (an asset it holds, on its
 * chain), what that becomes, how much, and the slippage allowed → every
 * provider's quote side by side (what arrives, the minimum after slippage,
 * the rate, the fee, each expiry counting down, the best marked) → the
 * approval card the approvers will see, computed by the server from the very
 * body Send sends → sent once. An expired quote is never sent: the member is
 * asked to get a new one.
 */
export function SwapForm({ vaults, assets }: { vaults: Vault[]; assets: Asset[] }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const navigate = useNavigate();
  const [values, setValues] = useState<SwapValues>(swapDefaults);
  const [errors, setErrors] = useState<Partial<Record<SwapField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | undefined>();
  const [step, setStep] = useState<'edit' | 'review'>('edit');
  const [stale, setStale] = useState<string | null>(null);
  const inFlight = useRef(false);
  const done = useRef(false);

  const balances = useQuery({
    ...referenceQueries.vaultBalances(values.vaultId),
    enabled: Boolean(values.vaultId),
  });
  const side = splitFrom(values.from);
  const balance = side ? balances.data?.[side.asset]?.[side.chain] : undefined;
  const quote = useQuoteTrade();
  const create = useCreateSwap();

  // Quotes price the request they were asked for: a changed form hides them.
  const queryNow = JSON.stringify(tradeQuery(values));
  const answer =
    quote.data && JSON.stringify(quote.data.query) === queryNow ? quote.data.answer : undefined;
  const quotes = answer?.tradeResponseDataList;
  const picked = quotes?.find((q) => q.quoteId === chosen);

  const set = (name: keyof SwapValues, value: string, reset: Partial<SwapValues> = {}) => {
    setValues((v) => ({ ...v, [name]: value, ...reset }));
    if (name in errors) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const focusFirst = (found: Partial<Record<SwapField, string>>) => {
    const first = FIELD_ORDER.find((f) => found[f]);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  // Each field the server names goes back beside its control; the rest above the form.
  const putBack = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 400) return;
    const placed: Partial<Record<SwapField, string>> = {};
    const unplaced: string[] = [];
    for (const { field, message } of error.fields ?? []) {
      const name = FIELD_OF[field.split('.').pop() ?? field];
      if (name) placed[name] = message;
      else unplaced.push(message);
    }
    if (!error.fields?.length) unplaced.push(error.message);
    setErrors(placed);
    setFormError(unplaced.length ? unplaced.join(' ') : null);
    focusFirst(placed);
  };

  const askQuotes = () => {
    const query = tradeQuery(values);
    if (!query) return;
    setFormError(null);
    quote.mutate(query, {
      onSuccess: ({ answer: got }) => setChosen(got.tradeResponseDataList[0]?.quoteId),
      onError: putBack,
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = swapProblems(values, balance);
    setErrors(found);
    if (Object.keys(found).length) {
      focusFirst(found);
      return;
    }
    askQuotes();
  };

  const send = (q: TradeQuote) => {
    if (inFlight.current || done.current || !answer) return;
    // Read as Send is pressed, not at the last render: a price past its expiry is never sent.
    if (isExpiredNow(expiresAtOf(q))) {
      setStale('This quote has expired, so its price can no longer be used. Nothing was sent.');
      return;
    }
    inFlight.current = true;
    create.mutate(swapBody(values, answer, q), {
      onSuccess: (transaction) => {
        done.current = true;
        if (!transaction.id) return;
        void navigate({
          to: '/transactions/$transactionId',
          params: { transactionId: transaction.id },
        });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code && STALE_QUOTE.has(error.code))
          setStale(`${error.message}. Nothing was sent.`);
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  if (step === 'review' && picked && answer)
    return (
      <SwapReview
        quote={picked}
        body={swapBody(values, answer, picked)}
        stale={stale}
        sending={create.isPending}
        sendError={create.isError && !stale ? create.error : null}
        onSend={() => send(picked)}
        onBack={() => {
          create.reset();
          setStep('edit');
        }}
        onRequote={() => {
          create.reset();
          setStale(null);
          setStep('edit');
          askQuotes();
        }}
      />
    );

  const sources = swapSourceOptions(balances.data);
  const targets = swapTargetOptions(assets, values.from);
  const control = (name: SwapField) => ({
    id: fieldId(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(fieldId(name), {
      error: errors[name],
      hint: name === 'slippage' || name === 'from',
    }),
  });

  return (
    <div className="flex flex-col gap-4">
      <FormCard
        title="Swap: one asset a vault holds into another"
        onSubmit={onSubmit}
        error={formError ? `The custody service refused this swap: ${formError}` : null}
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id={fieldId('vaultId')} label="Vault" error={errors.vaultId}>
            <Select
              {...control('vaultId')}
              value={values.vaultId}
              onChange={(e) => set('vaultId', e.target.value, { from: '', toAsset: '' })}
            >
              <option value="">Choose a vault</option>
              {vaultOptions(vaults).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id={fieldId('from')}
            label="Sell"
            hint="An asset the vault holds, on its chain"
            error={errors.from}
          >
            <Select
              {...control('from')}
              value={values.from}
              onChange={(e) => set('from', e.target.value, { toAsset: '' })}
            >
              <option value="">
                {!values.vaultId
                  ? 'Choose a vault first'
                  : balances.isPending
                    ? 'Loading what it holds…'
                    : 'Choose what it sells'}
              </option>
              {sources.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id={fieldId('toAsset')} label="Into" error={errors.toAsset}>
            <Select
              {...control('toAsset')}
              value={values.toAsset}
              onChange={(e) => set('toAsset', e.target.value)}
            >
              <option value="">
                {values.from ? 'Choose what it becomes' : 'Choose what it sells first'}
              </option>
              {targets.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field
            id={fieldId('amount')}
            label={side ? `Amount sold (${side.asset})` : 'Amount sold'}
            error={errors.amount}
          >
            <Input
              {...control('amount')}
              inputMode="decimal"
              autoComplete="off"
              value={values.amount}
              onChange={(e) => set('amount', e.target.value)}
            />
          </Field>
          <Field
            id={fieldId('slippage')}
            label="Slippage allowed (%)"
            hint={`The least that may arrive is the quote's amount less this; at most ${MAX_SLIPPAGE_PERCENT}%`}
            error={errors.slippage}
          >
            <Input
              {...control('slippage')}
              inputMode="decimal"
              autoComplete="off"
              value={values.slippage}
              onChange={(e) => set('slippage', e.target.value)}
            />
          </Field>
          <Field id={fieldId('memo')} label="Memo (optional)">
            <Input
              id={fieldId('memo')}
              maxLength={MEMO_MAX_LENGTH}
              value={values.memo}
              onChange={(e) => set('memo', e.target.value)}
            />
          </Field>
        </div>
        <FormActions>
          <SubmitButton pending={quote.isPending} pendingLabel="Asking for quotes…">
            {quotes ? 'Get new quotes' : 'Get quotes'}
          </SubmitButton>
        </FormActions>
        {quote.isError && !(quote.error instanceof ApiError && quote.error.status === 400) ? (
          <FormError>No quotes: {describeError(quote.error)}</FormError>
        ) : null}
      </FormCard>
      {quotes && answer ? (
        <section aria-label="Quotes" className="rounded-lg border border-slate-300 bg-white p-4">
          {quotes.length === 0 ? (
            <p role="status" className="text-sm text-slate-800">
              No provider quoted this swap. Try another amount or asset.
            </p>
          ) : (
            <>
              <TradeQuoteList
                quotes={quotes}
                fromAsset={answer.tradeRequestData.fromAsset}
                toAsset={answer.tradeRequestData.toAsset}
                chosen={chosen}
                onChoose={setChosen}
                onRefresh={askQuotes}
                refreshing={quote.isPending}
              />
              <FormActions className="mt-4">
                <Button
                  variant="primary"
                  disabled={!picked}
                  onClick={() => {
                    setStale(null);
                    create.reset();
                    setStep('review');
                  }}
                >
                  Review the chosen quote
                </Button>
              </FormActions>
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}

/** Every provider's quote for the swap side by side: what arrives, at least what arrives, the rate, the fee on top. */
function TradeQuoteList({
  fromAsset,
  toAsset,
  ...choices
}: {
  quotes: TradeQuote[];
  fromAsset: string;
  toAsset: string;
  chosen: string | undefined;
  onChoose: (quoteId: string) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  return (
    <QuoteChoices
      {...choices}
      name="trade-quote"
      expiryOf={expiresAtOf}
      providerOf={(q) => q.sourceName}
      details={(q) => (
        <>
          <dt className="text-slate-700">Arrives</dt>
          <dd className="font-medium tabular-nums" data-testid="trade-quote-arrives">
            {amountText(q.finalToAmount, toAsset)}
          </dd>
          <dt className="text-slate-700">At least</dt>
          <dd className="tabular-nums" data-testid="trade-quote-minimum">
            {amountText(q.minimumToAmount, toAsset)} after slippage
          </dd>
          <dt className="text-slate-700">Rate</dt>
          <dd className="tabular-nums">
            {q.unitToAssetAmount
              ? `1 ${fromAsset} = ${formatAmount(q.unitToAssetAmount)} ${toAsset}`
              : 'not stated'}
          </dd>
          <dt className="text-slate-700">Fee</dt>
          <dd className="tabular-nums" data-testid="trade-quote-fee">
            {q.fees?.amount
              ? `${amountText(q.fees.amount, q.fees.asset ?? fromAsset)} on top`
              : 'none stated'}
          </dd>
          <dt className="text-slate-700">How long</dt>
          <dd>
            {describeWait(
              q.estCompletionTimeInSec === undefined
                ? undefined
                : // eslint-disable-next-line no-restricted-syntax -- seconds, not an amount
                  Number(q.estCompletionTimeInSec),
            )}
          </dd>
        </>
      )}
    />
  );
}

/**
 * What the member confirms: the approval card the approvers will see (the
 * server's, for the very body Send sends), the quote's countdown, and Send;
 * or, once the quote cannot be used, a new quote.
 */
function SwapReview({
  quote,
  body,
  stale,
  sending,
  sendError,
  onSend,
  onBack,
  onRequote,
}: {
  quote: TradeQuote;
  body: ReturnType<typeof swapBody>;
  stale: string | null;
  sending: boolean;
  sendError: unknown;
  onSend: () => void;
  onBack: () => void;
  onRequote: () => void;
}) {
  const now = useNow(1000);
  const preview = useSwapCardPreview(body);
  const left = secondsLeft(expiresAtOf(quote), now);
  return (
    <FormCard title="Review before sending: Swap" focusTitle>
      <p className="text-sm text-slate-800" data-testid="swap-review-expiry">
        {quote.sourceName ? `${quote.sourceName}'s quote: ` : 'Quote: '}
        {describeExpiry(left)}
      </p>
      {preview.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          Working out the approval card…
        </p>
      ) : preview.isError ? (
        <p role="status" className="text-sm text-slate-800">
          The approval card is not known ({describeError(preview.error)}).
        </p>
      ) : (
        <ApprovalCardView answer={preview.data} title="What approvers will see" />
      )}
      {stale ? (
        <FormError>{stale} Get a new quote to see today's price before sending.</FormError>
      ) : sendError ? (
        <FormError>Not sent: {describeError(sendError)} Nothing you entered was lost.</FormError>
      ) : null}
      <FormActions>
        {stale ? (
          <Button variant="primary" onClick={onRequote}>
            Get new quotes
          </Button>
        ) : (
          <Button
            variant="primary"
            onClick={onSend}
            // Held until what approvers will see is worked out, or failed once: the member sends
            // what they have seen, and the card arriving above never moves the button under them.
            disabled={sending || (preview.isPending && preview.failureCount === 0)}
          >
            {sending ? 'Sending…' : sendError ? 'Check and send again' : 'Send swap'}
          </Button>
        )}
        <Button onClick={onBack} disabled={sending}>
          Back to quotes
        </Button>
      </FormActions>
    </FormCard>
  );
}
