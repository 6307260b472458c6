import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { chainInfo } from '../../../../../contract/chains.ts';
import { formatAmount } from '../../../../../contract/decimal.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field, describedBy } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { DestinationFields, describeDestination } from './destination-fields.tsx';
import { CreateFormShell, ReviewRow, useCreateFlow } from './create-flow.tsx';
import { FeeTierPicker, feeOf } from './fee-tier-picker.tsx';
import { maxAmount } from './form-rules.ts';
import {
  assetOptions,
  balanceOf,
  chainLabelOf,
  chainOptions,
  decimalsOf,
  vaultName,
  vaultOptions,
  type PickerData,
} from './picker-data.ts';
import { FeeAndTotalRows } from './review-helpers.tsx';
import { SelectField } from './select-field.tsx';
import {
  toTransferRequest,
  transferDefaults,
  transferFieldFor,
  transferFormSchema,
  type TransferFormValues,
} from './transfer-schema.ts';
import { useCreateForm } from './use-create-form.ts';

/** 7a: send an asset from a vault to an approved contact, another vault or an external address. */
export function TransferForm({ data }: { data: PickerData }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { form, values, estimate, ctx } = useCreateForm({
    schema: transferFormSchema,
    defaults: transferDefaults,
    context: (v, estimate) => {
      const fee = feeOf(estimate, v.feeTier);
      return {
        decimals: decimalsOf(data, v.asset, v.blockChain),
        balance: balanceOf(data, v.sourceVaultId, v.asset, v.blockChain),
        feeInAsset:
          !v.feePayerVaultId && fee?.asset === v.asset ? fee.expectedFeeInAsset : undefined,
      };
    },
    toRequest: toTransferRequest,
  });
  const flow = useCreateFlow({
    form,
    draftKey: '/transactions/new#transfer',
    fieldFor: (path, v: TransferFormValues) => transferFieldFor(path, v),
  });
  const { errors } = form.formState;
  const chain = chainInfo(values.blockChain);
  const fee = feeOf(estimate.ready ? estimate.query.data : undefined, values.feeTier);
  const balance = balanceOf(data, values.sourceVaultId, values.asset, values.blockChain);
  const max = maxAmount(ctx);
  const a11y = (name: keyof TransferFormValues, hint?: string) => ({
    id: f(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(f(name), { hint, error: errors[name] }),
  });
  const request = flow.request?.category === 'TRANSFER' ? flow.request : null;
  const from = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          id={f('sourceVaultId')}
          label="From vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, values.asset, values.blockChain)}
          error={errors.sourceVaultId?.message}
          {...form.register('sourceVaultId')}
        />
        <SelectField
          id={f('blockChain')}
          label="Chain"
          placeholder="Choose a chain"
          options={chainOptions(data, values.sourceVaultId)}
          error={errors.blockChain?.message}
          {...form.register('blockChain', {
            onChange: () => {
              form.setValue('asset', '');
              form.setValue('destinationContactId', '');
            },
          })}
        />
        <SelectField
          id={f('asset')}
          label="Asset"
          placeholder={values.blockChain ? 'Choose an asset' : 'Choose a chain first'}
          options={assetOptions(data, values.blockChain)}
          error={errors.asset?.message}
          {...form.register('asset')}
        />
      </div>
      <DestinationFields form={form} values={values} data={data} fieldId={f} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={f('amount')}
          label={values.asset ? `Amount (${values.asset})` : 'Amount'}
          hint={
            balance !== undefined
              ? `${formatAmount(balance)} ${values.asset} available${max !== undefined && ctx.feeInAsset ? `; at most ${formatAmount(max)} after the fee` : ''}.`
              : undefined
          }
          error={errors.amount?.message}
        >
          <div className="flex gap-2">
            <Input
              inputMode="decimal"
              autoComplete="off"
              {...a11y('amount', balance !== undefined ? 'hint' : undefined)}
              {...form.register('amount')}
            />
            <Button
              disabled={max === undefined}
              onClick={() =>
                max !== undefined &&
                form.setValue('amount', max, { shouldDirty: true, shouldValidate: true })
              }
            >
              Max
            </Button>
          </div>
        </Field>
        {chain?.supportsFeePayer ? (
          <SelectField
            id={f('feePayerVaultId')}
            label="Fee paid by"
            placeholder="The source vault"
            hint={`${chain.label} lets another vault pay the network fee.`}
            options={vaultOptions(data, chain.nativeAsset, chain.value, values.sourceVaultId)}
            error={errors.feePayerVaultId?.message}
            {...form.register('feePayerVaultId')}
          />
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={f('memo')} label="Memo (optional)" error={errors.memo?.message}>
          <Input autoComplete="off" {...a11y('memo')} {...form.register('memo')} />
        </Field>
        <Field
          id={f('externalId')}
          label="External ID"
          hint="Your reference; made when the form opened so this transfer is created once."
          error={errors.externalId?.message}
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            {...a11y('externalId', 'hint')}
            {...form.register('externalId')}
          />
        </Field>
      </div>
      <Controller
        control={form.control}
        name="feeTier"
        render={({ field, fieldState }) => (
          <FeeTierPicker
            id={f('feeTier')}
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            blockChain={values.blockChain}
            ready={estimate.ready}
            query={estimate.query}
            error={fieldState.error?.message}
          />
        )}
      />
    </>
  );

  const reviewRows = request ? (
    <>
      <ReviewRow term="Transfer">
        {formatAmount(request.amount)} {request.asset} on {chainLabelOf(request.blockChain)}
      </ReviewRow>
      <ReviewRow term="From">{from}</ReviewRow>
      <ReviewRow term="To">{describeDestination(data, request.destination)}</ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.amount}
        asset={request.asset}
        vault={from}
        feePayer={request.feePayer ? vaultName(data, request.feePayer.id) : undefined}
      />
      {request.memo ? <ReviewRow term="Memo">{request.memo}</ReviewRow> : null}
      <ReviewRow term="External ID">{request.externalId ?? 'none'}</ReviewRow>
      <ReviewRow term="Category">{humanize(request.category)}</ReviewRow>
    </>
  ) : null;

  return (
    <CreateFormShell id={id} title="Transfer" flow={flow} fields={fields} reviewRows={reviewRows} />
  );
}
