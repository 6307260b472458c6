import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Transaction } from '#contract/transaction-record.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { humanize } from '../../../lib/labels.ts';
import { rampQueries } from '../api/ramp-queries.ts';
import { amountOf } from '../quote-text.ts';

/** What arrived at the account (an off-ramp, an FX) or what it paid (a deposit), from the quote. */
function amounts(tx: Transaction): { leaves: string; arrives: string } {
  const quote = tx.quoteResponse;
  return {
    leaves: amountOf(quote?.finalFromAmount ?? tx.amount, quote?.fromAsset ?? tx.asset),
    arrives: amountOf(quote?.finalToAmount, quote?.toAsset),
  };
}

/** A bank account's page: the ramps paid to it (and funded from it), newest first, each to its page. */
export function BankAccountRamps({ bankAccountId }: { bankAccountId: string }) {
  const ramps = useQuery(rampQueries.ofBankAccount(bankAccountId));
  return (
    <section aria-labelledby="bank-account-ramps-title" className="flex flex-col gap-2">
      <h2 id="bank-account-ramps-title" className="text-lg font-semibold text-slate-900">
        Conversions
      </h2>
      {ramps.isPending ? <Skeleton className="h-16 w-full" /> : null}
      {ramps.isError ? (
        <ErrorState
          title="The conversions could not be loaded"
          error={ramps.error}
          onRetry={() => void ramps.refetch()}
          retrying={ramps.isFetching}
        />
      ) : null}
      {ramps.data && ramps.data.results.length === 0 ? (
        <p className="text-sm text-slate-700">No conversion has paid this account yet.</p>
      ) : null}
      {ramps.data && ramps.data.results.length > 0 ? (
        <ul className="flex flex-col gap-2" data-testid="bank-account-ramps">
          {ramps.data.results.map((tx) => {
            const { leaves, arrives } = amounts(tx);
            return (
              <li
                key={tx.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-300 bg-white p-3 text-sm"
              >
                <span className="flex flex-col">
                  <Link
                    to="/transactions/$transactionId"
                    params={{ transactionId: tx.id ?? '' }}
                    className="font-medium text-blue-800 underline hover:text-blue-900"
                  >
                    {humanize(tx.category) || 'Conversion'}: {leaves} → {arrives}
                  </Link>
                  <span className="text-slate-700">
                    {tx.quoteResponse?.sourceName ? `${tx.quoteResponse.sourceName} · ` : ''}
                    {tx.createdAt ? <DateTime iso={tx.createdAt} /> : null}
                  </span>
                </span>
                <StatusBadge status={tx.status} />
              </li>
            );
          })}
        </ul>
      ) : null}
      {ramps.data?.hasNext ? (
        <p className="text-sm text-slate-700">The newest 20 are shown.</p>
      ) : null}
    </section>
  );
}
