import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { formatAmount } from '../../../../../contract/decimal.ts';
import { Field, describedBy } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { CreateFormShell, ReviewRow, useCreateFlow } from './create-flow.tsx';
import {
  delegateResourceDefaults,
  delegateResourceFieldFor,
  delegateResourceFormSchema,
  toDelegateResourceRequest,
  type DelegateResourceFormValues,
} from './delegate-resource-schema.ts';
import { DestinationFields, describeDestination } from './destination-fields.tsx';
import { FeeTierPicker, feeOf } from './fee-tier-picker.tsx';
import { chainLabelOf, decimalsOf, vaultName, type PickerData } from './picker-data.ts';
import { FeeAndTotalRows } from './review-helpers.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import { useCreateForm } from './use-create-form.ts';

/**
 * 7d: lend a vault's staked TRON bandwidth or energy to another party. No
 * balance moves (the resource is delegated, not the asset): the vault pays
 * only the network fee.
 */
export function DelegateResourceForm({ data }: { data: PickerData }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { form, values, estimate } = useCreateForm({
    schema: delegateResourceFormSchema,
    defaults: delegateResourceDefaults,
    context: (v) => ({ decimals: decimalsOf(data, v.asset, v.blockChain) }),
    toRequest: toDelegateResourceRequest,
  });
  const flow = useCreateFlow({
    form,
    draftKey: '/transactions/new#delegate-resource',
    fieldFor: (path, v: DelegateResourceFormValues) => delegateResourceFieldFor(path, v),
  });
  const { errors } = form.formState;
  const fee = feeOf(estimate.ready ? estimate.query.data : undefined, values.feeTier);
  const a11y = (name: keyof DelegateResourceFormValues, hint?: string) => ({
    id: f(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(f(name), { hint, error: errors[name] }),
  });
  const request = flow.request?.category === 'DELEGATE_RESOURCE' ? flow.request : null;
  const vault = vaultName(data, values.sourceVaultId);

  const fields = (
    <>
      <StakeLikeFields
        form={form}
        values={values}
        data={data}
        fieldId={f}
        offers={(c) => c.tronResources}
        resourceRequired
      />
      <DestinationFields form={form} values={values} data={data} fieldId={f} />
      <Field
        id={f('amount')}
        label={values.asset ? `Amount (${values.asset} of staked resource)` : 'Amount'}
        hint="How much of the staked resource to delegate; the vault's balance does not change."
        error={errors.amount?.message}
      >
        <Input
          inputMode="decimal"
          autoComplete="off"
          {...a11y('amount', 'hint')}
          {...form.register('amount')}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={f('memo')} label="Memo (optional)" error={errors.memo?.message}>
          <Input autoComplete="off" {...a11y('memo')} {...form.register('memo')} />
        </Field>
        <Field
          id={f('externalId')}
          label="External ID"
          hint="Your reference; made when the form opened so this delegation is created once."
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
      <ReviewRow term="Delegate">
        {humanize(request.resourceType.replace('TRON_', ''))} backed by{' '}
        {formatAmount(request.amount)} {request.asset} on {chainLabelOf(request.blockChain)}
      </ReviewRow>
      <ReviewRow term="From">{vault}</ReviewRow>
      <ReviewRow term="To">{describeDestination(data, request.destination)}</ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={undefined}
        asset={undefined}
        vault={vault}
      />
      {request.memo ? <ReviewRow term="Memo">{request.memo}</ReviewRow> : null}
      <ReviewRow term="External ID">{request.externalId ?? 'none'}</ReviewRow>
    </>
  ) : null;

  return (
    <CreateFormShell
      id={id}
      title="Resource delegation"
      flow={flow}
      fields={fields}
      reviewRows={reviewRows}
    />
  );
}
