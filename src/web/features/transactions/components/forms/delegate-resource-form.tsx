import { formatAmount } from '#contract/decimal.ts';
import { humanize } from '../../../../lib/labels.ts';
import { TextField } from '../../../../components/bound-fields.tsx';
import { CreateFormShell, ReviewRow } from './create-flow.tsx';
import {
  delegateResourceDefaults,
  delegateResourceFieldFor,
  delegateResourceFormSchema,
  toDelegateResourceRequest,
} from './delegate-resource-schema.ts';
import { DestinationFields, describeDestination } from './destination-fields.tsx';
import {
  chainLabelOf,
  decimalsOf,
  vaultName,
  walletAddress,
  type PickerData,
} from './picker-data.ts';
import { FeeAndTotalRows, ReferenceRows } from './review-helpers.tsx';
import { ReferenceAndFeeFields } from './shared-fields.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import { useCreateForm } from './use-create-form.ts';

/**
 * 7d: lend a vault's staked TRON bandwidth or energy to another party. No
 * balance moves (the resource is delegated, not the asset): the vault pays
 * only the network fee.
 */
export function DelegateResourceForm({ data }: { data: PickerData }) {
  const { values, estimate, fee, flow, request, bound } = useCreateForm({
    category: 'DELEGATE_RESOURCE',
    schema: delegateResourceFormSchema,
    defaults: delegateResourceDefaults,
    context: (v) => ({
      decimals: decimalsOf(data, v.asset, v.blockChain),
      sourceAddress: walletAddress(data, v.sourceVaultId, v.blockChain),
    }),
    toRequest: toDelegateResourceRequest,
    draftKey: '/transactions/new#delegate-resource',
    fieldFor: delegateResourceFieldFor,
  });
  const vault = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <StakeLikeFields
        {...bound}
        values={values}
        data={data}
        offers={(c) => c.tronResources}
        resourceRequired
      />
      <DestinationFields {...bound} values={values} data={data} />
      <TextField
        {...bound}
        name="amount"
        label={values.asset ? `Amount (${values.asset} of staked resource)` : 'Amount'}
        hint="How much of the staked resource to delegate; the vault's balance does not change."
        inputMode="decimal"
      />
      <p className="text-sm text-slate-700">
        The custody API offers no undelegate: a delegation cannot be taken back from here.
      </p>
      <ReferenceAndFeeFields
        {...bound}
        noun="delegation"
        blockChain={values.blockChain}
        estimate={estimate}
      />
    </>
  );

  const reviewRows = request ? (
    <>
      <ReviewRow term="Delegate">
        {humanize(request.resourceType.replace('TRON_', ''))} backed by{' '}
        {formatAmount(request.amount)} {request.asset} on {chainLabelOf(request.blockChain)}
      </ReviewRow>
      <ReviewRow term="From">{vault}</ReviewRow>
      <ReviewRow term="To">
        {describeDestination(data, request.destination, request.blockChain)}
      </ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={undefined}
        asset={undefined}
        vault={vault}
      />
      <ReferenceRows memo={request.memo} externalId={request.externalId} />
    </>
  ) : null;

  return (
    <CreateFormShell
      title="Resource delegation"
      flow={flow}
      fields={fields}
      reviewRows={reviewRows}
    />
  );
}
