import type { ReactNode } from 'react';
import type { RampQuote } from '#contract/ramp-record.ts';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useNow } from '../../../lib/use-now.ts';
import {
  amountOf,
  describeExpiry,
  describeFee,
  describeRate,
  describeWait,
  secondsLeft,
} from '../quote-text.ts';
import { Choice } from '../../../components/ui/input.tsx';

/**
 * Every provider's quote side by side, best first, as one radio group: the
 * provider, what the quote promises (`details`, its own per kind of quote),
 * and a countdown to each quote's expiry. The seconds tick in plain text;
 * only the quotes' arrival and their expiry are announced. A ramp's quotes
 * and a swap's share it.
 */
export function QuoteChoices<Q extends { quoteId: string }>({
  quotes,
  name,
  expiryOf,
  providerOf,
  details,
  chosen,
  onChoose,
  onRefresh,
  refreshing,
}: {
  quotes: Q[];
  /** The radio group's name; each card's element and test ids start with it. */
  name: string;
  expiryOf: (quote: Q) => Pick<RampQuote, 'expiresAt'>;
  providerOf: (quote: Q) => string | null | undefined;
  details: (quote: Q) => ReactNode;
  chosen: string | undefined;
  onChoose: (quoteId: string) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const now = useNow(1000);
  const allExpired = quotes.every((q) => secondsLeft(expiryOf(q), now) === 0);
  const statusId = `${name}-list-status`;
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={statusId}>
      <legend className="text-lg font-semibold text-slate-900">
        {quotes.length} quote{quotes.length === 1 ? '' : 's'}, best first
      </legend>
      <p id={statusId} role="status" className="text-sm text-slate-700">
        {allExpired
          ? 'These quotes have expired: refresh them for a price you can use.'
          : 'Choose one, then review it. Each price holds until it expires.'}
      </p>
      <ol className="grid gap-3 md:grid-cols-3">
        {quotes.map((quote, i) => {
          const left = secondsLeft(expiryOf(quote), now);
          const expired = left === 0;
          const inputId = `${name}-${quote.quoteId}`;
          return (
            <li key={quote.quoteId}>
              <label
                htmlFor={inputId}
                data-testid={name}
                className={cn(
                  'flex h-full cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700',
                  expired ? 'border-slate-300 bg-slate-50' : 'border-slate-300 bg-white',
                )}
              >
                <span className="flex items-center gap-2">
                  <Choice
                    id={inputId}
                    type="radio"
                    name={name}
                    className="size-4"
                    value={quote.quoteId}
                    checked={chosen === quote.quoteId}
                    onChange={() => onChoose(quote.quoteId)}
                  />
                  <span className="font-semibold text-slate-900">
                    {providerOf(quote) || 'Provider not named'}
                  </span>
                  {i === 0 ? (
                    <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-900">
                      Best
                    </span>
                  ) : null}
                </span>
                <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
                  {details(quote)}
                </dl>
                <span
                  className={cn('text-xs', expired ? 'font-medium text-red-800' : 'text-slate-700')}
                  data-testid={`${name}-expiry`}
                >
                  {describeExpiry(left)}
                </span>
              </label>
            </li>
          );
        })}
      </ol>
      <div>
        <Button size="sm" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh quotes'}
        </Button>
      </div>
    </fieldset>
  );
}

/** A ramp's or an FX conversion's quotes: what arrives, what leaves (the fee inside it), the rate, how long. */
export function QuoteList(props: {
  quotes: RampQuote[];
  chosen: string | undefined;
  onChoose: (quoteId: string) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  return (
    <QuoteChoices
      {...props}
      name="quote"
      expiryOf={(quote) => quote}
      providerOf={(quote) => quote.sourceName}
      details={(quote) => (
        <>
          <dt className="text-slate-700">Arrives</dt>
          <dd className="font-medium tabular-nums" data-testid="quote-arrives">
            {amountOf(quote.finalToAmount, quote.toAsset)}
          </dd>
          <dt className="text-slate-700">Leaves</dt>
          <dd className="tabular-nums" data-testid="quote-leaves">
            {amountOf(quote.finalFromAmount, quote.fromAsset)}
          </dd>
          <dt className="text-slate-700">Fee</dt>
          <dd className="tabular-nums">{describeFee(quote)} (included)</dd>
          <dt className="text-slate-700">Rate</dt>
          <dd className="tabular-nums">{describeRate(quote)}</dd>
          <dt className="text-slate-700">How long</dt>
          <dd>{describeWait(quote.estCompletionTimeInSec)}</dd>
        </>
      )}
    />
  );
}
