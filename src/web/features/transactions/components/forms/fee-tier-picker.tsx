import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { chainInfo } from '#contract/chains.ts';
import { formatAmount, formatUsd } from '#contract/decimal.ts';
import { FEE_TIERS, type FeeTier } from '#contract/enums.ts';
import type { EstimatedFeeResponse, FeeData } from '#contract/transaction.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { FieldError } from '../../../../components/ui/field.tsx';
import { describeError } from '../../../../lib/api-errors.ts';
import { humanize } from '../../../../lib/labels.ts';
import { ESTIMATE_STALE_MS } from '../../api/fee-estimate.ts';
import { Choice } from '../../../../components/ui/input.tsx';

export function feeOf(
  estimate: EstimatedFeeResponse | undefined,
  tier: FeeTier,
): FeeData | undefined {
  if (!estimate) return undefined;
  return tier === 'HIGH' ? estimate.high : tier === 'MEDIUM' ? estimate.medium : estimate.low;
}

const TIER_HINT: Record<FeeTier, string> = {
  HIGH: 'fastest',
  MEDIUM: 'standard',
  LOW: 'cheapest, may wait on a busy chain',
};

function useSecondsSince(at: number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!at) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [at]);
  return at ? Math.max(0, Math.floor((now - at) / 1000)) : undefined;
}

export function describeFee(fee: FeeData): string {
  return `${formatAmount(fee.expectedFeeInAsset)} ${fee.asset} (about ${formatUsd(fee.expectedFeeInUSD)} USD)`;
}

/**
 * HIGH / MEDIUM / LOW as a radio group, each with its fee in the native asset
 * and in USD (and base and priority fee where the chain has them), the
 * estimate's age, and a refresh once it is older than 30 seconds. An
 * estimate that fails is reported and does not stop the form being sent:
 * the fee is fixed when the transaction is signed.
 */
export function FeeTierPicker({
  id,
  name,
  value,
  onChange,
  onBlur,
  blockChain,
  ready,
  query,
  error,
}: {
  id: string;
  name: string;
  value: FeeTier;
  onChange: (tier: FeeTier) => void;
  onBlur?: () => void;
  blockChain: string;
  ready: boolean;
  query: UseQueryResult<EstimatedFeeResponse>;
  error?: string | undefined;
}) {
  const estimate = ready ? query.data : undefined;
  const age = useSecondsSince(estimate ? query.dataUpdatedAt : undefined);
  const stale = age !== undefined && age * 1000 >= ESTIMATE_STALE_MS;
  const gwei = chainInfo(blockChain)?.eip1559 ? ' gwei' : '';
  const statusId = `${id}-status`;

  // The age ticks every second in plain text; only changes of state are announced.
  let status: string;
  let announce: string;
  if (!ready) status = announce = 'The fee is estimated once the form above is complete.';
  else if (query.isError) status = announce = '';
  else if (!estimate) status = announce = 'Estimating the fee…';
  else if (stale) {
    status = `This estimate is ${age} seconds old and out of date: refresh it before sending.`;
    announce = 'The fee estimate is out of date.';
  } else {
    status = `Estimated ${age ?? 0} second${age === 1 ? '' : 's'} ago.`;
    announce = 'Fee estimated.';
  }

  return (
    <fieldset
      className="flex flex-col gap-2 rounded-md border border-slate-300 p-3"
      aria-describedby={[statusId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">Network fee</legend>
      <div className="flex flex-col gap-1">
        {FEE_TIERS.map((tier) => {
          const fee = feeOf(estimate, tier);
          return (
            <label
              key={tier}
              className="flex items-start gap-2 rounded-md p-2 text-sm hover:bg-slate-50 has-[:checked]:bg-blue-50"
            >
              <Choice
                type="radio"
                className="mt-0.5 size-4 shrink-0"
                id={tier === value ? id : undefined}
                name={name}
                value={tier}
                checked={value === tier}
                onChange={() => onChange(tier)}
                onBlur={onBlur}
              />
              <span className="flex flex-col">
                <span>
                  <span className="font-medium">{humanize(tier)}</span>{' '}
                  <span className="text-slate-700">({TIER_HINT[tier]})</span>
                  {fee ? <span data-testid={`fee-${tier}`}>: {describeFee(fee)}</span> : null}
                </span>
                {fee?.baseFee || fee?.priorityFee ? (
                  <span className="text-xs text-slate-700">
                    {fee.baseFee ? `base fee ${formatAmount(fee.baseFee)}${gwei}` : ''}
                    {fee.baseFee && fee.priorityFee ? ', ' : ''}
                    {fee.priorityFee ? `priority fee ${formatAmount(fee.priorityFee)}${gwei}` : ''}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      <p id={statusId} className={stale ? 'text-sm text-amber-900' : 'text-sm text-slate-700'}>
        {status}
      </p>
      <p role="status" className="sr-only">
        {announce}
      </p>
      {ready && query.isError ? (
        <p role="alert" className="text-sm text-red-800">
          The fee could not be estimated: {describeError(query.error)} You can still send; the fee
          is set when the transaction is signed.
        </p>
      ) : null}
      {ready && (stale || query.isError) ? (
        <div>
          <Button size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching ? 'Refreshing…' : 'Refresh estimate'}
          </Button>
        </div>
      ) : null}
      <FieldError id={id} error={error} />
    </fieldset>
  );
}
