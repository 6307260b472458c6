import { useId } from 'react';
import { formatAmount } from '../../../../../contract/decimal.ts';
import { humanize } from '../../../../lib/labels.ts';
import { CreateFormShell, ReviewRow, useCreateFlow } from './create-flow.tsx';
import { chainLabelOf, sendContext, vaultName, type PickerData } from './picker-data.ts';
import { FeeAndTotalRows } from './review-helpers.tsx';
import { AmountWithMaxField, FeeTierField, MemoAndExternalIdFields } from './shared-fields.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import { stakeDefaults, stakeFieldFor, stakeFormSchema, toStakeRequest } from './stake-schema.ts';
import { useCreateForm } from './use-create-form.ts';

/** 7c: stake a chain's native asset from a vault. */
export function StakeForm({ data }: { data: PickerData }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { form, values, estimate, fee, ctx } = useCreateForm({
    schema: stakeFormSchema,
    defaults: stakeDefaults,
    context: (v, fee) =>
      sendContext(data, { vaultId: v.sourceVaultId, asset: v.asset, chain: v.blockChain }, fee),
    toRequest: toStakeRequest,
  });
  const flow = useCreateFlow({
    form,
    draftKey: '/transactions/new#stake',
    fieldFor: stakeFieldFor,
  });
  const request = flow.request?.category === 'STAKE' ? flow.request : null;
  const vault = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <StakeLikeFields
        form={form}
        values={values}
        data={data}
        fieldId={f}
        offers={(c) => c.stake}
        resourceRequired={false}
      />
      <AmountWithMaxField form={form} fieldId={f} asset={values.asset} context={ctx} />
      <MemoAndExternalIdFields form={form} fieldId={f} noun="stake" />
      <FeeTierField form={form} fieldId={f} blockChain={values.blockChain} estimate={estimate} />
    </>
  );

  const reviewRows = request ? (
    <>
      <ReviewRow term="Stake">
        {formatAmount(request.amount)} {request.asset} on {chainLabelOf(request.blockChain)}
        {request.resourceType ? `, for ${humanize(request.resourceType.replace('TRON_', ''))}` : ''}
      </ReviewRow>
      <ReviewRow term="From">{vault}</ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.amount}
        asset={request.asset}
        vault={vault}
      />
      {request.memo ? <ReviewRow term="Memo">{request.memo}</ReviewRow> : null}
      <ReviewRow term="External ID">{request.externalId ?? 'none'}</ReviewRow>
    </>
  ) : null;

  return <CreateFormShell title="Stake" flow={flow} fields={fields} reviewRows={reviewRows} />;
}
