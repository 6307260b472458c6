import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, type ReactNode } from 'react';
import { formatUsd } from '#contract/decimal-format.ts';
import { LEDGER_HISTORY_DAYS } from '#contract/ledger-history-days.ts';
import type { LedgerHistoryResponse } from '#contract/ledger.ts';
import { PageSection } from '../../../components/page-section.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { ledgerQueries, type HistoryDays, type LedgerWho } from '../api/ledger-queries.ts';
import {
  below,
  feesByMonth,
  historyDays,
  holdingsByAsset,
  totalsByDay,
  zeroFilled,
} from '../ledger-figures.ts';
import { LedgerChart } from './ledger-chart.tsx';
import { ReconstructionNote } from './reconstruction-note.tsx';
import { LedgerPicker } from './ledger-picker.tsx';
import type { PlotSpec } from './plot.ts';

/** Series colours, distinct on the light and the dark theme alike. */
const PALETTE = [
  '#2563eb',
  '#16a34a',
  '#d97706',
  '#9333ea',
  '#0891b2',
  '#dc2626',
  '#65a30d',
  '#db2777',
];
const IN_COLOR = '#16a34a';
const OUT_COLOR = '#dc2626';
const FEE_COLOR = '#d97706';
const REWARD_COLOR = '#9333ea';

const usd = (value: string) => `${formatUsd(value)} USD`;

/** `/ledger`: whose ledger, over how many days, and its four charts, each with its table. */
export function LedgerHistoryPage({
  who,
  days,
  onWhoChange,
}: {
  who: LedgerWho;
  days: HistoryDays;
  onWhoChange: (next: LedgerWho) => void;
}) {
  const history = useQuery(ledgerQueries.history(who, days));
  return (
    <PageSection name="ledger" heading="Ledger" className="gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-72 max-w-full">
          <LedgerPicker value={who} onChange={onWhoChange} />
        </div>
        <nav aria-label="Period" className="flex gap-1">
          {LEDGER_HISTORY_DAYS.map((d) => (
            <Link
              key={d}
              to="/ledger"
              search={(prev) => ({ ...prev, days: d })}
              aria-current={d === days ? 'page' : undefined}
              className={cn(
                'rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                'aria-[current=page]:border-blue-700 aria-[current=page]:bg-blue-700 aria-[current=page]:text-white',
              )}
            >
              {`${d} days`}
            </Link>
          ))}
        </nav>
        <Link
          to="/ledger/statement"
          search={(prev) => ({ subOrg: prev.subOrg, vault: who.vaultId })}
          className="ml-auto text-sm font-medium text-blue-800 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          Statement
        </Link>
      </div>
      {history.isPending ? (
        <Skeleton className="h-96 w-full" />
      ) : history.isError ? (
        <ErrorState
          title="The ledger could not be loaded"
          error={history.error}
          onRetry={() => void history.refetch()}
          retrying={history.isFetching}
        />
      ) : (
        <div
          data-testid="ledger-history"
          data-days={history.data.days}
          aria-busy={history.isPlaceholderData}
          className={cn('flex flex-col gap-4', history.isPlaceholderData && 'opacity-60')}
        >
          <ReconstructionNote reconstructed={history.data.reconstructed} />
          <HistoryCharts history={history.data} />
        </div>
      )}
    </PageSection>
  );
}

function FiguresTable({
  label,
  caption,
  headers,
  rows,
}: {
  label: string;
  caption: string;
  headers: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
}) {
  return (
    <TableContainer label={label} className="max-h-96 overflow-y-auto">
      <Table>
        <TableCaption>{caption}</TableCaption>
        <TableHeader>
          <TableRow>
            {headers.map((h, i) => (
              <TableHead key={h} className={i > 0 ? 'text-right' : undefined}>
                {h}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              {row.cells.map((cell, i) =>
                i === 0 ? (
                  <TableHead key={i} scope="row" className="font-normal normal-case">
                    {cell}
                  </TableHead>
                ) : (
                  <TableCell key={i} className="text-right tabular-nums">
                    {cell}
                  </TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function HistoryCharts({ history }: { history: LedgerHistoryResponse }) {
  const figures = useMemo(() => {
    const labels = historyDays(history);
    const holdings = holdingsByAsset(history);
    const totals = totalsByDay(holdings, history.days);
    const flowsIn = zeroFilled(history.flows.inUsd);
    const flowsOut = zeroFilled(history.flows.outUsd);
    const rewards = zeroFilled(history.flows.rewardsUsd);
    const fees = feesByMonth(labels, history.flows.feesUsd);
    const holdingsSpec: PlotSpec = {
      kind: 'stacked-area',
      labels,
      series: holdings.map((h, i) => ({
        label: h.asset,
        color: PALETTE[i % PALETTE.length] ?? '#2563eb',
        values: h.usd,
      })),
    };
    const flowsSpec: PlotSpec = {
      kind: 'bars',
      labels,
      series: [
        { label: 'In', color: IN_COLOR, values: flowsIn },
        { label: 'Out', color: OUT_COLOR, values: below(flowsOut) },
      ],
    };
    const feesSpec: PlotSpec = {
      kind: 'bars',
      labels: fees.map((f) => f.month),
      series: [{ label: 'Fees', color: FEE_COLOR, values: fees.map((f) => f.usd) }],
    };
    const rewardsSpec: PlotSpec = {
      kind: 'bars',
      labels,
      series: [{ label: 'Staking rewards', color: REWARD_COLOR, values: rewards }],
    };
    return {
      labels,
      holdings,
      totals,
      flowsIn,
      flowsOut,
      rewards,
      fees,
      holdingsSpec,
      flowsSpec,
      feesSpec,
      rewardsSpec,
    };
  }, [history]);
  const { labels, holdings, totals } = figures;
  const newestFirst = labels.map((day, i) => ({ day, i })).reverse();
  const last = labels.length - 1;
  const rewardsTotal = figures.rewards.reduce((n, v) => (v === '0' ? n : n + 1), 0);
  return (
    <>
      <LedgerChart
        id="ledger-holdings"
        title="Holdings in USD, by asset"
        summary={`${usd(totals[last] ?? '0')} on ${labels[last] ?? ''} (UTC), ${holdings.length} asset${holdings.length === 1 ? '' : 's'}, valued at each day's price.`}
        spec={figures.holdingsSpec}
        legend
        table={
          <FiguresTable
            label="Holdings by day"
            caption="Closing value in USD of each asset at the end of each UTC day, newest first"
            headers={['Day (UTC)', ...holdings.map((h) => `${h.asset} (USD)`), 'Total (USD)']}
            rows={newestFirst.map(({ day, i }) => ({
              key: day,
              cells: [
                day,
                ...holdings.map((h) => formatUsd(h.usd[i] ?? '0')),
                formatUsd(totals[i] ?? '0'),
              ],
            }))}
          />
        }
      />
      <LedgerChart
        id="ledger-flows"
        title="Inflow and outflow per day, in USD"
        summary={`Today (UTC): ${usd(figures.flowsIn[last] ?? '0')} in, ${usd(figures.flowsOut[last] ?? '0')} out, at each movement's price.`}
        spec={figures.flowsSpec}
        legend
        table={
          <FiguresTable
            label="Inflow and outflow by day"
            caption="Value in and out in USD each UTC day, newest first"
            headers={['Day (UTC)', 'In (USD)', 'Out (USD)']}
            rows={newestFirst.map(({ day, i }) => ({
              key: day,
              cells: [
                day,
                formatUsd(figures.flowsIn[i] ?? '0'),
                formatUsd(figures.flowsOut[i] ?? '0'),
              ],
            }))}
          />
        }
      />
      <LedgerChart
        id="ledger-fees"
        title="Fees per month, in USD"
        summary={`${usd(figures.fees.at(-1)?.usd ?? '0')} in fees in ${figures.fees.at(-1)?.month ?? ''} so far (the months this period covers).`}
        spec={figures.feesSpec}
        legend={false}
        table={
          <FiguresTable
            label="Fees by month"
            caption="Fees paid in USD each month, newest first"
            headers={['Month (UTC)', 'Fees (USD)']}
            rows={[...figures.fees]
              .reverse()
              .map((f) => ({ key: f.month, cells: [f.month, formatUsd(f.usd)] }))}
          />
        }
      />
      <LedgerChart
        id="ledger-rewards"
        title="Staking rewards per day, in USD"
        summary={
          rewardsTotal === 0
            ? 'No staking rewards in this period.'
            : `Rewards on ${rewardsTotal} day${rewardsTotal === 1 ? '' : 's'} of this period; today (UTC) ${usd(figures.rewards[last] ?? '0')}.`
        }
        spec={figures.rewardsSpec}
        legend={false}
        table={
          <FiguresTable
            label="Staking rewards by day"
            caption="Staking rewards in USD each UTC day, newest first"
            headers={['Day (UTC)', 'Rewards (USD)']}
            rows={newestFirst.map(({ day, i }) => ({
              key: day,
              cells: [day, formatUsd(figures.rewards[i] ?? '0')],
            }))}
          />
        }
      />
    </>
  );
}
