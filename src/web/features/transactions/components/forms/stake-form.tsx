import { useQueryClient } from '@tanstack/react-query';
import { formatAmount } from '#contract/decimal.ts';
import { TextField } from '../../../../components/bound-fields.tsx';
import { Choice } from '../../../../components/ui/input.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { stakedQuery, useStaked } from '../../api/staked.ts';
import { CreateFormShell, ReviewRow } from './create-flow.tsx';
import { decimalsOf, sendContext, vaultName, type PickerData } from './picker-data.ts';
import { AmountOnChainRow, FeeAndTotalRows, ReferenceRows } from './review-helpers.tsx';
import { AmountWithMaxField, ReferenceAndFeeFields } from './shared-fields.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import { stakeDefaults, stakeFieldFor, stakeFormSchema, toStakeRequest } from './stake-schema.ts';
import { useCreateForm } from './use-create-form.ts';

const ACTIONS = [
  { value: 'STAKE', label: 'Stake' },
  { value: 'UNSTAKE', label: 'Unstake' },
] as const;

/**
 * 7c: stake a chain's native asset from a vault, or take a stake back
 * (sub-category UNSTAKE). An unstake shows what the vault has staked, the
 * server's figure, and is checked against it as the amount is typed; the
 * server's own refusal (UNSTAKE_EXCEEDS_STAKED) lands on the amount too.
 */
export function StakeForm({ data }: { data: PickerData }) {
  // The staked figure is read from the query's cache when the form validates: the query
  // below is keyed by the form's own values, so it can only be declared after the form.
  const queryClient = useQueryClient();
  const { values, estimate, fee, ctx, flow, request, bound } = useCreateForm({
    category: 'STAKE',
    schema: stakeFormSchema,
    defaults: stakeDefaults,
    context: (v, fee) =>
      v.action === 'UNSTAKE'
        ? {
            decimals: decimalsOf(data, v.asset, v.blockChain),
            staked:
              queryClient.getQueryData(
                stakedQuery(v.sourceVaultId, v.blockChain, v.resourceType).queryKey,
              )?.staked ?? undefined,
          }
        : sendContext(data, { vaultId: v.sourceVaultId, asset: v.asset, chain: v.blockChain }, fee),
    toRequest: toStakeRequest,
    draftKey: '/transactions/new#stake',
    fieldFor: stakeFieldFor,
  });
  const unstaking = values.action === 'UNSTAKE';
  const staked = useStaked(values.sourceVaultId, values.blockChain, values.resourceType, unstaking);
  const vault = vaultName(data, values.sourceVaultId);
  const stakedText =
    staked.data?.staked != null
      ? `${formatAmount(staked.data.staked)} ${staked.data.asset} staked${values.resourceType ? ` for ${humanize(values.resourceType.replace('TRON_', ''))}` : ''}: the most you can unstake.`
      : staked.data
        ? 'The custody API does not report what is staked: it checks the amount when the unstake is sent.'
        : staked.isError
          ? 'What is staked could not be read: the amount is checked when the unstake is sent.'
          : values.sourceVaultId && values.blockChain
            ? 'Reading what is staked…'
            : 'Choose the vault and chain to see what is staked.';

  const fields = (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Action</legend>
        <div className="flex flex-wrap gap-4">
          {ACTIONS.map((action) => (
            <label key={action.value} className="flex items-center gap-2 text-sm">
              <Choice
                type="radio"
                className="size-4 shrink-0"
                value={action.value}
                {...bound.form.register('action')}
              />
              {action.label}
            </label>
          ))}
        </div>
      </fieldset>
      <StakeLikeFields
        {...bound}
        values={values}
        data={data}
        offers={(c) => c.stake}
        resourceRequired={false}
      />
      {unstaking ? (
        <TextField
          {...bound}
          name="amount"
          label={values.asset ? `Amount to unstake (${values.asset})` : 'Amount to unstake'}
          hint={stakedText}
          inputMode="decimal"
        />
      ) : (
        <AmountWithMaxField {...bound} asset={values.asset} context={ctx} />
      )}
      <ReferenceAndFeeFields
        {...bound}
        noun={unstaking ? 'unstake' : 'stake'}
        blockChain={values.blockChain}
        estimate={estimate}
      />
    </>
  );

  const reviewRows = request ? (
    <>
      <AmountOnChainRow
        term={request.subCategory === 'UNSTAKE' ? 'Unstake' : 'Stake'}
        request={request}
      >
        {request.resourceType ? `, for ${humanize(request.resourceType.replace('TRON_', ''))}` : ''}
      </AmountOnChainRow>
      <ReviewRow term={request.subCategory === 'UNSTAKE' ? 'Back to' : 'From'}>{vault}</ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.subCategory === 'UNSTAKE' ? undefined : request.amount}
        asset={request.subCategory === 'UNSTAKE' ? undefined : request.asset}
        vault={vault}
      />
      <ReferenceRows memo={request.memo} externalId={request.externalId} />
    </>
  ) : null;

  return (
    <CreateFormShell
      title={unstaking ? 'Unstake' : 'Stake'}
      flow={flow}
      fields={fields}
      reviewRows={reviewRows}
    />
  );
}
