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
 * Every provider's quote side by side, best first, as one radio group: what
 * arrives, what leaves (the fee inside it), the rate, the fee, how long, and
 * a countdown to each quote's expiry. The seconds tick in plain text; only
 * the quotes' arrival and their expiry are announced.
 */
export function QuoteList({
  quotes,
  chosen,
  onChoose,
  onRefresh,
  refreshing,
}: {
  quotes: RampQuote[];
  chosen: string | undefined;
  onChoose: (quoteId: string) => void;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const now = useNow(1000);
  const allExpired = quotes.every((q) => secondsLeft(q, now) === 0);
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby="quote-list-status">
      <legend className="text-lg font-semibold text-slate-900">
        {quotes.length} quote{quotes.length === 1 ? '' : 's'}, best first
      </legend>
      <p id="quote-list-status" role="status" className="text-sm text-slate-700">
        {allExpired
          ? 'These quotes have expired: refresh them for a price you can use.'
          : 'Choose one, then review it. Each price holds until it expires.'}
      </p>
      <ol className="grid gap-3 md:grid-cols-3">
        {quotes.map((quote, i) => {
          const left = secondsLeft(quote, now);
          const expired = left === 0;
          const inputId = `quote-${quote.quoteId}`;
          return (
            <li key={quote.quoteId}>
              <label
                htmlFor={inputId}
                data-testid="quote"
                className={cn(
                  'flex h-full cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm has-[:checked]:border-blue-700 has-[:checked]:bg-blue-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700',
                  expired ? 'border-slate-300 bg-slate-50' : 'border-slate-300 bg-white',
                )}
              >
                <span className="flex items-center gap-2">
                  <Choice
                    id={inputId}
                    type="radio"
                    name="quote"
                    className="size-4"
                    value={quote.quoteId}
                    checked={chosen === quote.quoteId}
                    onChange={() => onChoose(quote.quoteId)}
                  />
                  <span className="font-semibold text-slate-900">
                    {quote.sourceName ?? 'Provider not named'}
                  </span>
                  {i === 0 ? (
                    <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-900">
                      Best
                    </span>
                  ) : null}
                </span>
                <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
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
                </dl>
                <span
                  className={cn('text-xs', expired ? 'font-medium text-red-800' : 'text-slate-700')}
                  data-testid="quote-expiry"
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
