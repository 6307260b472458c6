import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense, type ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import { CONSOLE_LOCALE } from '#contract/display.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { OverviewResponse } from '#contract/overview.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { formatAge } from '../../../lib/approval-inbox-items.ts';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { useNow } from '../../../lib/use-now.ts';
import { overviewQueries } from '../api/overview-queries.ts';
import { FiguresGrid, FiguresTable, type Bar } from './charts.tsx';

// The charts are drawn once the page's figures and tables are there: the
// server renders a placeholder of their size, and the browser loads their
// code after it takes the page over, so neither the first HTML nor the
// page's scripts wait on them. Each chart's figures are its table beside it.
const HorizontalBars = lazy(() =>
  import('./chart-drawings.tsx').then((m) => ({ default: m.HorizontalBars })),
);
const Columns = lazy(() => import('./chart-drawings.tsx').then((m) => ({ default: m.Columns })));

/**
 * A chart, drawn once the browser has taken the page over; its placeholder before, in the
 * server's HTML too. Suspense alone is not enough: once any render in the server's process
 * has loaded the charts' code, a lazy component renders at once, and every first HTML after
 * would carry them.
 */
function DrawnOnceHydrated({
  placeholder,
  children,
}: {
  placeholder: ReactNode;
  children: ReactNode;
}) {
  return useHydrated() ? <Suspense fallback={placeholder}>{children}</Suspense> : placeholder;
}

const usd = (value: string) => `${formatUsd(value)} USD`;
const linkClass = 'font-medium text-blue-800 underline hover:text-blue-900';

// Made once: a formatter costs far more to make than to use, and the page labels 60 days a render.
const DAY_LABEL = new Intl.DateTimeFormat(CONSOLE_LOCALE, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** "Nov 3" for the member's day `2026-11-03` (a calendar day: no zone moves it). */
function dayLabel(day: string): string {
  return DAY_LABEL.format(new Date(`${day}T12:00:00Z`));
}

/** One headline figure: what it is, the number, and what it means or where to go. */
function Figure({
  term,
  testId,
  children,
  detail,
}: {
  term: string;
  testId: string;
  children: ReactNode;
  detail?: ReactNode;
}) {
  return (
    <div className="rounded-lg border border-slate-300 bg-white p-4">
      <dt className="text-sm text-slate-700">{term}</dt>
      <dd className="mt-1">
        <span
          className="block text-2xl font-semibold text-slate-900 tabular-nums"
          data-testid={testId}
        >
          {children}
        </span>
        {detail ? <div className="mt-1 text-sm text-slate-700">{detail}</div> : null}
      </dd>
    </div>
  );
}

function PriceStamp({ data }: { data: OverviewResponse }) {
  return (
    <p className="text-sm text-slate-700" data-testid="priced-at">
      {data.priceSource === 'SANDBOX_REFERENCE'
        ? 'Valued at the sandbox’s reference prices'
        : 'Valued by the custody service (its balanceInUSD)'}
      , read <DateTime iso={data.pricedAt} />. Refreshed every few seconds while this page is open.
    </p>
  );
}

function Waiting({ waiting }: { waiting: NonNullable<OverviewResponse['waiting']> }) {
  const now = useNow(30_000);
  return (
    <Figure
      term="Waiting for your decision"
      testId="waiting-count"
      detail={
        <>
          {waiting.oldestAt
            ? `The oldest came in ${formatAge(waiting.oldestAt, now)}. `
            : waiting.totalCount > 0
              ? 'Every item waiting is yours: another member decides. '
              : 'Nothing waits. '}
          <Link to="/approvals" className={linkClass}>
            Open the approvals inbox
          </Link>
        </>
      }
    >
      {waiting.actionableCount}
    </Figure>
  );
}

/**
 * Transactions on the chain past their fee tier's usual time: how many, and
 * the latest to become so, each a link to its page, where a replacement with a
 * higher fee is offered.
 */
function Slow({ slow }: { slow: OverviewResponse['slow'] }) {
  const more = slow.count - slow.transactions.length;
  return (
    <Figure
      term="Slower than usual"
      testId="slow-count"
      detail={
        slow.count === 0 ? (
          'Every transaction on the chain is within its fee tier’s usual time.'
        ) : (
          <>
            Past their fee tier’s usual time: replace them with a higher fee?
            <ul className="mt-1 space-y-1" data-testid="slow-transactions">
              {slow.transactions.map((tx) => (
                <li key={tx.id}>
                  <Link
                    to="/transactions/$transactionId"
                    params={{ transactionId: tx.id }}
                    className={linkClass}
                  >
                    {`${humanize(tx.category ?? 'TRANSACTION')}${
                      tx.amount ? ` of ${formatAmount(tx.amount)} ${tx.asset ?? ''}`.trimEnd() : ''
                    } on ${chainLabel(tx.blockChain ?? undefined)}`}
                  </Link>
                  {`, ${humanize(tx.status).toLowerCase()}${
                    tx.feeTier ? `, ${humanize(tx.feeTier).toLowerCase()} fee` : ''
                  }, due by `}
                  <DateTime iso={tx.slowAfter} />
                </li>
              ))}
            </ul>
            {more > 0 ? `And ${more} more. ` : null}
          </>
        )
      }
    >
      {slow.count}
    </Figure>
  );
}

/** What crossed the vaults' edge one way in the last day: its USD value, and how many completed it. */
function LastDayFlow({
  term,
  testId,
  flow,
  where,
}: {
  term: string;
  testId: string;
  flow: OverviewResponse['lastDay']['outflow'];
  /** Which way, as "to outside the vaults shown". */
  where: string;
}) {
  const unpriced = flow.unpriced > 0 ? `, ${flow.unpriced} without a USD value` : '';
  return (
    <Figure
      term={term}
      testId={testId}
      detail={`${flow.count} completed transaction${flow.count === 1 ? '' : 's'}${unpriced} ${where}`}
    >
      {usd(flow.usd)}
    </Figure>
  );
}

function Headlines({ data }: { data: OverviewResponse }) {
  const inFlight = data.inFlight.byStatus.filter((s) => s.count > 0);
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <Figure
        term="Total holdings"
        testId="total-usd"
        detail={`Across ${data.byVault.length} vault${data.byVault.length === 1 ? '' : 's'}`}
      >
        {usd(data.totalUsd)}
      </Figure>
      {data.waiting ? <Waiting waiting={data.waiting} /> : null}
      <Figure
        term="Transactions in flight"
        testId="in-flight-count"
        detail={
          <>
            {inFlight.length > 0
              ? `${inFlight.map((s) => `${s.count} ${humanize(s.status).toLowerCase()}`).join(', ')}. `
              : 'None on their way. '}
            <Link to="/transactions" className={linkClass}>
              All transactions
            </Link>
          </>
        }
      >
        {data.inFlight.count}
      </Figure>
      <Slow slow={data.slow} />
      <LastDayFlow
        term="Sent out in the last 24 hours"
        testId="outflow-usd"
        flow={data.lastDay.outflow}
        where="to outside the vaults shown"
      />
      <LastDayFlow
        term="Received in the last 24 hours"
        testId="inflow-usd"
        flow={data.lastDay.inflow}
        where="from outside the vaults shown"
      />
    </dl>
  );
}

function ByAsset({ data }: { data: OverviewResponse }) {
  const bars: Bar[] = data.byAsset.map((a) => ({
    key: a.symbol,
    label: a.symbol,
    share: a.share,
    value: usd(a.usd),
  }));
  return (
    <Panel title="Holdings by asset">
      <div className="mt-3">
        {bars.length === 0 ? (
          <p className="text-sm text-slate-700">Nothing held.</p>
        ) : (
          <DrawnOnceHydrated
            placeholder={
              <svg aria-hidden="true" width="100%" height={bars.length * 28} className="block" />
            }
          >
            <HorizontalBars
              bars={bars}
              description={`Holdings by asset: ${data.byAsset
                .slice(0, 3)
                .map((a) => `${a.symbol} ${a.share} %`)
                .join(
                  ', ',
                )}${data.byAsset.length > 3 ? ', and others' : ''} of the total. The same figures follow as a table.`}
            />
          </DrawnOnceHydrated>
        )}
        <FiguresTable
          summary="Holdings by asset as a table"
          caption="Holdings by asset: units held, value in USD and share of the total"
          headers={['Asset', 'Held', 'Value (USD)', 'Share']}
          rows={data.byAsset.map((a) => ({
            key: a.symbol,
            cells: [a.symbol, formatAmount(a.balance), formatUsd(a.usd), `${a.share} %`],
          }))}
        />
        {data.unpriced.length > 0 ? (
          <p className="mt-3 text-sm text-slate-700">
            Held without a price, so in no total:{' '}
            {data.unpriced
              .map(
                (u) =>
                  `${formatAmount(u.balance)} ${u.symbol} on ${chainLabel(u.chain ?? undefined)}`,
              )
              .join('; ')}
            .
          </p>
        ) : null}
      </div>
    </Panel>
  );
}

function ByChain({ data }: { data: OverviewResponse }) {
  return (
    <Panel title="Holdings by chain">
      <div className="mt-3">
        <FiguresGrid
          caption="Holdings by chain, largest first"
          headers={['Chain', 'Value (USD)', 'Share']}
          rows={data.byChain.map((c) => ({
            key: c.chain,
            cells: [chainLabel(c.chain), formatUsd(c.usd), `${c.share} %`],
          }))}
        />
      </div>
    </Panel>
  );
}

function ByVault({ data }: { data: OverviewResponse }) {
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const subOrgName = (id: string | null) =>
    id ? (subOrgs.data?.results.find((s) => s.id === id)?.name ?? id) : 'Whole organization';
  return (
    <Panel title="Holdings by vault">
      <div
        className="mt-3 overflow-x-auto"
        role="region"
        aria-label="Holdings by vault table"
        tabIndex={0}
      >
        <FiguresGrid
          caption="Holdings by vault, largest first"
          headers={['Vault', 'Sub-organization', 'Value (USD)']}
          textColumns={2}
          rows={data.byVault.map((v) => ({
            key: v.id,
            cells: [
              <Link
                key="vault"
                to="/vaults/$vaultId"
                params={{ vaultId: v.id }}
                className={linkClass}
              >
                {v.name}
              </Link>,
              subOrgName(v.subOrgId),
              formatUsd(v.usd),
            ],
          }))}
        />
      </div>
      <p className="mt-3 text-sm">
        <Link to="/vaults" className={linkClass}>
          All vaults, with their chains and balances
        </Link>
      </p>
    </Panel>
  );
}

function OutflowChart({ data }: { data: OverviewResponse }) {
  const bars: Bar[] = data.outflowByDay.map((d) => ({
    key: d.day,
    label: dayLabel(d.day),
    share: d.share,
    value: usd(d.usd),
  }));
  const busiest = data.outflowByDay.find((d) => d.share === '100.00');
  return (
    <Panel title="Sent out, last 30 days">
      <div className="mt-3">
        <DrawnOnceHydrated placeholder={<div aria-hidden="true" className="h-37" />}>
          <Columns
            bars={bars}
            description={`Completed outflow per day over the last 30 days, in ${data.timeZone}${
              busiest ? `; the most on ${dayLabel(busiest.day)}, ${usd(busiest.usd)}` : '; none'
            }. The same figures follow as a table.`}
          />
        </DrawnOnceHydrated>
        <p className="mt-1 text-xs text-slate-700">Days in {data.timeZone}.</p>
        <FiguresTable
          summary="Outflow per day as a table"
          caption="Completed outflow per day, oldest first"
          headers={['Day', 'Transactions', 'Value (USD)']}
          rows={data.outflowByDay.map((d) => ({
            key: d.day,
            cells: [dayLabel(d.day), d.count, formatUsd(d.usd)],
          }))}
        />
      </div>
    </Panel>
  );
}

/** `/`: the treasury at a glance, for the scope chosen in the header. */
export function OverviewPage({
  subOrgId,
  timeZone,
}: {
  subOrgId: string | undefined;
  timeZone: string;
}) {
  const query = useQuery(overviewQueries.get({ subOrgId, timeZone }));
  return (
    <PageSection name="overview" heading="Overview" className="gap-6">
      {query.isPending ? (
        <div aria-busy="true" aria-label="Loading the overview" className="flex flex-col gap-3">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState
          title="The overview could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <>
          <PriceStamp data={query.data} />
          <Headlines data={query.data} />
          {query.data.transactionsComplete ? null : (
            <p className="text-sm text-slate-700">
              Flows and counts are of the most recent transactions only: there are more than this
              page reads.
            </p>
          )}
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <ByAsset data={query.data} />
            <OutflowChart data={query.data} />
            <ByVault data={query.data} />
            <ByChain data={query.data} />
          </div>
        </>
      )}
    </PageSection>
  );
}
