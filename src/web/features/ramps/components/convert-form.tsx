import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ERROR_CODES } from '#contract/common.ts';
import type { PaymentMethod } from '#contract/enums.ts';
import type { RampKind, RampQuote } from '#contract/ramp-record.ts';
import type { IntentCreateRequest, RampIntentInput } from '#contract/ramps.ts';
import type { FieldId } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, FormError, SubmitButton } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useCreateRamp } from '../api/create-ramp.ts';
import { useQuoteRamp } from '../api/quote-ramp.ts';
import {
  convertDefaults,
  convertFieldFor,
  convertSchema,
  toIntent,
  type ConvertContext,
  type ConvertFormValues,
} from '../convert-form.ts';
import { KIND_TITLES } from '../kinds.ts';
import { isExpiredNow } from '../quote-text.ts';
import { ConvertFields, type ConvertPickers } from './convert-fields.tsx';
import { ConvertReview } from './convert-review.tsx';
import { QuoteList } from './quote-list.tsx';

/** A refusal that means the quote can no longer be used: ask for a new one, never resend the old. */
const STALE_QUOTE = new Set<string>([
  ERROR_CODES.quoteExpired,
  ERROR_CODES.quoteAlreadyUsed,
  ERROR_CODES.quoteNotFound,
]);

/**
 * One conversion: fields → quotes (side by side, best first, counting down)
 * → a review of exactly what leaves and what arrives → sent once. The quote
 * is checked for expiry when Send is pressed: an expired one is never sent,
 * the member is asked to get a new one. A refusal naming fields puts each
 * back on its field.
 */
export function ConvertForm({
  kind,
  pickers,
}: {
  kind: RampKind;
  pickers: Omit<ConvertPickers, 'balance'>;
}) {
  const id = useId();
  const fieldId: FieldId = (name) => `${id}-${name}`;
  const navigate = useNavigate();
  const contextRef = useRef<ConvertContext>({});
  const form = useForm<ConvertFormValues, unknown, { intent: RampIntentInput }>({
    resolver: (values, context, options) =>
      zodResolver(convertSchema(kind, contextRef.current))(values, context, options),
    defaultValues: convertDefaults(),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const values = useWatch({ control: form.control }) as ConvertFormValues;
  const balances = useQuery({
    ...referenceQueries.vaultBalances(values.vaultId),
    enabled: kind === 'OFF_RAMP' && Boolean(values.vaultId),
  });
  const balance =
    kind === 'OFF_RAMP' && values.asset && values.chain && balances.data
      ? (balances.data[values.asset]?.[values.chain] ?? '0')
      : undefined;
  const rail = pickers.accounts.find((a) => a.id === values.bankAccountId)?.paymentMethod as
    PaymentMethod | undefined;
  // Validation runs on the member's events, after this render: it sees what the pickers show.
  useLayoutEffect(() => {
    contextRef.current = { balance, rail };
  });

  const quote = useQuoteRamp();
  const create = useCreateRamp();
  const [chosen, setChosen] = useState<string | undefined>();
  const [step, setStep] = useState<'edit' | 'review'>('edit');
  const [stale, setStale] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // Set synchronously: a second click in the same frame finds it set before React re-renders.
  const inFlight = useRef(false);
  const done = useRef(false);

  // Quotes price the intent they were asked for: a changed form hides them.
  const intentNow = JSON.stringify(toIntent(kind, values));
  const quotes =
    quote.data && JSON.stringify(quote.data.intent) === intentNow ? quote.data.quotes : undefined;
  const picked = quotes?.find((q) => q.quoteId === chosen);

  const askQuotes = (intent: RampIntentInput) => {
    setFormError(null);
    quote.mutate(intent, {
      onSuccess: (answer) => setChosen(answer.quotes[0]?.quoteId),
      onError: (error) => putBack(error),
    });
  };

  // Each field the server names goes back beside its control; the rest above the form.
  const putBack = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 400) return;
    const unplaced: string[] = [];
    let first: keyof ConvertFormValues | undefined;
    for (const { field, message } of error.fields ?? []) {
      const name = convertFieldFor(kind, field);
      if (!name) unplaced.push(message);
      else {
        form.setError(name, { type: 'server', message });
        first ??= name;
      }
    }
    if (!error.fields?.length) unplaced.push(error.message);
    setFormError(unplaced.length ? unplaced.join(' ') : null);
    if (first) form.setFocus(first);
  };

  /** Exactly what Send sends for a quote: the policy's review is asked about this very body. */
  const requestFor = (q: RampQuote, intent: RampIntentInput): IntentCreateRequest => {
    const memo = values.memo.trim();
    return {
      intent,
      quoteId: q.quoteId,
      externalId: values.externalId.trim(),
      ...(memo ? { memo } : {}),
    };
  };

  const send = (q: RampQuote) => {
    if (inFlight.current || done.current || !quote.data) return;
    // Read as Send is pressed, not at the last render: a price past its expiry is never sent.
    if (isExpiredNow(q)) {
      setStale('This quote has expired, so its price can no longer be used. Nothing was sent.');
      return;
    }
    inFlight.current = true;
    create.mutate(requestFor(q, quote.data.intent), {
      onSuccess: (transaction) => {
        done.current = true;
        if (!transaction.id) return;
        void navigate({
          to: '/transactions/$transactionId',
          params: { transactionId: transaction.id },
        });
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code && STALE_QUOTE.has(error.code)) {
          setStale(`${error.message}. Nothing was sent.`);
          return;
        }
        if (error instanceof ApiError && error.status === 400 && error.fields?.length) {
          setStep('edit');
          putBack(error);
        }
      },
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  if (step === 'review' && picked && quote.data) {
    return (
      <ConvertReview
        kind={kind}
        quote={picked}
        request={requestFor(picked, quote.data.intent)}
        values={values}
        pickers={pickers}
        stale={stale}
        sending={create.isPending}
        sendError={
          create.error instanceof ApiError && create.error.fields?.length ? null : create.error
        }
        onSend={() => send(picked)}
        onBack={() => {
          create.reset();
          setStep('edit');
        }}
        onRequote={() => {
          create.reset();
          setStale(null);
          setStep('edit');
          if (quote.data) askQuotes(quote.data.intent);
        }}
      />
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <FormCard
        title={KIND_TITLES[kind]}
        onSubmit={form.handleSubmit(({ intent }) => askQuotes(intent))}
        error={formError ? `The custody service refused this conversion: ${formError}` : null}
      >
        <ConvertFields
          kind={kind}
          values={values}
          pickers={{ ...pickers, balance }}
          form={form}
          fieldId={fieldId}
        />
        <FormActions>
          <SubmitButton pending={quote.isPending} pendingLabel="Asking for quotes…">
            {quotes ? 'Get new quotes' : 'Get quotes'}
          </SubmitButton>
        </FormActions>
        {quote.isError && !(quote.error instanceof ApiError && quote.error.status === 400) ? (
          <FormError>No quotes: {describeError(quote.error)}</FormError>
        ) : null}
      </FormCard>
      {quotes ? (
        <section aria-label="Quotes" className="rounded-lg border border-slate-300 bg-white p-4">
          {quotes.length === 0 ? (
            <p role="status" className="text-sm text-slate-800">
              No provider quoted this conversion. Try another amount or currency.
            </p>
          ) : (
            <>
              <QuoteList
                quotes={quotes}
                chosen={chosen}
                onChoose={setChosen}
                onRefresh={() => quote.data && askQuotes(quote.data.intent)}
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
