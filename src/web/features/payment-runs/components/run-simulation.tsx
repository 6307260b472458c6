import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { PaymentRunSimulation } from '#contract/payment-runs.ts';
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

const leg = (l: { asset: string; blockChain: string; amount: string }) =>
  `${formatAmount(l.amount)} ${l.asset} on ${l.blockChain}`;

/**
 * What the run does to each source vault's asset, as its last check
 * simulated: before → after, what leaves, the network fees paid from it, and
 * the rows that do not fit (their amount or their fee); the
 * totals and the network fees' estimate (in the asset and in USD).
 */
export function RunSimulation({
  simulation,
  vaultName,
}: {
  simulation: PaymentRunSimulation;
  vaultName: (id: string) => string;
}) {
  const notes = simulation.lines.flatMap((l) => (l.note ? [l.note] : []));
  return (
    <div className="flex flex-col gap-3">
      <TableContainer label="Simulation per vault and asset">
        <Table>
          <TableCaption>
            Simulation: each source vault’s asset before and after the run
          </TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>Vault</TableHead>
              <TableHead>Asset</TableHead>
              <TableHead>Before</TableHead>
              <TableHead>Leaving</TableHead>
              <TableHead>Network fees</TableHead>
              <TableHead>After</TableHead>
              <TableHead>Rows that do not fit</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {simulation.lines.map((l) => (
              <TableRow key={`${l.vaultId}:${l.asset}:${l.blockChain}`}>
                <TableHead scope="row">{vaultName(l.vaultId)}</TableHead>
                <TableCell>
                  {l.asset} on {l.blockChain}
                </TableCell>
                <TableCell className="tabular-nums">{formatAmount(l.before)}</TableCell>
                <TableCell className="tabular-nums">{formatAmount(l.outflow)}</TableCell>
                <TableCell className="tabular-nums">{formatAmount(l.fees ?? '0')}</TableCell>
                <TableCell className="tabular-nums">{formatAmount(l.after)}</TableCell>
                <TableCell>
                  {l.rowsNotFitting.length ? l.rowsNotFitting.join(', ') : 'None'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {notes.length ? (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-800">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="font-medium text-slate-900">Total</dt>
        <dd>
          {simulation.totals.map(leg).join(' · ')}
          {simulation.totalUsd !== null
            ? ` ≈ ${formatUsd(simulation.totalUsd)} USD`
            : ' (no USD value known)'}
        </dd>
        <dt className="font-medium text-slate-900">Network fees (estimate)</dt>
        <dd>
          {simulation.fees.length
            ? simulation.fees
                .map((f) => `${leg(f)}${f.usd !== null ? ` (≈ ${formatUsd(f.usd)} USD)` : ''}`)
                .join(' · ')
            : 'None'}
          {simulation.feesUsd !== null ? `; ≈ ${formatUsd(simulation.feesUsd)} USD in all` : ''}
        </dd>
      </dl>
    </div>
  );
}
