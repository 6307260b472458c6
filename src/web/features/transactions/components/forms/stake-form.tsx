import { humanize } from '../../../../lib/labels.ts';
import { CreateFormShell, ReviewRow } from './create-flow.tsx';
import { sendContext, vaultName, type PickerData } from './picker-data.ts';
import { AmountOnChainRow, FeeAndTotalRows, ReferenceRows } from './review-helpers.tsx';
import { AmountWithMaxField, ReferenceAndFeeFields } from './shared-fields.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import { stakeDefaults, stakeFieldFor, stakeFormSchema, toStakeRequest } from './stake-schema.ts';
import { useCreateForm } from './use-create-form.ts';

/** 7c: stake a chain's native asset from a vault. */
export function StakeForm({ data }: { data: PickerData }) {
  const { values, estimate, fee, ctx, flow, request, bound } = useCreateForm({
    category: 'STAKE',
    schema: stakeFormSchema,
    defaults: stakeDefaults,
    context: (v, fee) =>
      sendContext(data, { vaultId: v.sourceVaultId, asset: v.asset, chain: v.blockChain }, fee),
    toRequest: toStakeRequest,
    draftKey: '/transactions/new#stake',
    fieldFor: stakeFieldFor,
  });
  const vault = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <StakeLikeFields
        {...bound}
        values={values}
        data={data}
        offers={(c) => c.stake}
        resourceRequired={false}
      />
      <AmountWithMaxField {...bound} asset={values.asset} context={ctx} />
      <ReferenceAndFeeFields
        {...bound}
        noun="stake"
        blockChain={values.blockChain}
        estimate={estimate}
      />
    </>
  );

  const reviewRows = request ? (
    <>
      <AmountOnChainRow term="Stake" request={request}>
        {request.resourceType ? `, for ${humanize(request.resourceType.replace('TRON_', ''))}` : ''}
      </AmountOnChainRow>
      <ReviewRow term="From">{vault}</ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.amount}
        asset={request.asset}
        vault={vault}
      />
      <ReferenceRows memo={request.memo} externalId={request.externalId} />
    </>
  ) : null;

  return <CreateFormShell title="Stake" flow={flow} fields={fields} reviewRows={reviewRows} />;
}
