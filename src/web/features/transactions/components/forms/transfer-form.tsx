import { chainInfo } from '#contract/chains.ts';
import { humanize } from '../../../../lib/labels.ts';
import { DestinationFields, describeDestination } from './destination-fields.tsx';
import { CreateFormShell, ReviewRow } from './create-flow.tsx';
import {
  assetOptions,
  chainOptions,
  sendContext,
  vaultName,
  vaultOptions,
  type PickerData,
} from './picker-data.ts';
import { AmountOnChainRow, FeeAndTotalRows, ReferenceRows } from './review-helpers.tsx';
import { SelectFieldFor } from '../../../../components/bound-fields.tsx';
import { AmountWithMaxField, ReferenceAndFeeFields } from './shared-fields.tsx';
import {
  toTransferRequest,
  transferDefaults,
  transferFieldFor,
  transferFormSchema,
} from './transfer-schema.ts';
import { useCreateForm } from './use-create-form.ts';

/** 7a: send an asset from a vault to an approved contact, another vault or an external address. */
export function TransferForm({ data }: { data: PickerData }) {
  const { form, values, estimate, fee, ctx, flow, request, bound } = useCreateForm({
    category: 'TRANSFER',
    schema: transferFormSchema,
    defaults: transferDefaults,
    // A fee-payer vault pays the fee: the whole balance can be sent.
    context: (v, fee) =>
      sendContext(
        data,
        { vaultId: v.sourceVaultId, asset: v.asset, chain: v.blockChain },
        v.feePayerVaultId ? undefined : fee,
      ),
    toRequest: toTransferRequest,
    draftKey: '/transactions/new#transfer',
    fieldFor: transferFieldFor,
  });
  const chain = chainInfo(values.blockChain);
  const from = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectFieldFor
          {...bound}
          name="sourceVaultId"
          label="From vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, values.asset, values.blockChain)}
        />
        <SelectFieldFor
          {...bound}
          name="blockChain"
          label="Chain"
          placeholder="Choose a chain"
          options={chainOptions(data, values.sourceVaultId)}
          rules={{
            onChange: () => {
              form.setValue('asset', '');
              form.setValue('destinationContactId', '');
            },
          }}
        />
        <SelectFieldFor
          {...bound}
          name="asset"
          label="Asset"
          placeholder={values.blockChain ? 'Choose an asset' : 'Choose a chain first'}
          options={assetOptions(data, values.blockChain)}
        />
      </div>
      <DestinationFields {...bound} values={values} data={data} />
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountWithMaxField {...bound} asset={values.asset} context={ctx} />
        {chain?.supportsFeePayer ? (
          <SelectFieldFor
            {...bound}
            name="feePayerVaultId"
            label="Fee paid by"
            placeholder="The source vault"
            hint={`${chain.label} lets another vault pay the network fee.`}
            options={vaultOptions(data, chain.nativeAsset, chain.value, values.sourceVaultId)}
          />
        ) : null}
      </div>
      <ReferenceAndFeeFields
        {...bound}
        noun="transfer"
        blockChain={values.blockChain}
        estimate={estimate}
      />
    </>
  );

  const reviewRows = request ? (
    <>
      <AmountOnChainRow term="Transfer" request={request} />
      <ReviewRow term="From">{from}</ReviewRow>
      <ReviewRow term="To">
        {describeDestination(data, request.destination, request.blockChain)}
      </ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.amount}
        asset={request.asset}
        vault={from}
        feePayer={request.feePayer ? vaultName(data, request.feePayer.id) : undefined}
      />
      <ReferenceRows memo={request.memo} externalId={request.externalId} />
      <ReviewRow term="Category">{humanize(request.category)}</ReviewRow>
    </>
  ) : null;

  return <CreateFormShell title="Transfer" flow={flow} fields={fields} reviewRows={reviewRows} />;
}
