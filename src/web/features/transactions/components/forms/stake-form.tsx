import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { formatAmount } from '../../../../../contract/decimal.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field, describedBy } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { CreateFormShell, ReviewRow, useCreateFlow } from './create-flow.tsx';
import { FeeTierPicker, feeOf } from './fee-tier-picker.tsx';
import { maxAmount } from './form-rules.ts';
import { balanceOf, chainLabelOf, decimalsOf, vaultName, type PickerData } from './picker-data.ts';
import { FeeAndTotalRows } from './review-helpers.tsx';
import { StakeLikeFields } from './stake-fields.tsx';
import {
  stakeDefaults,
  stakeFieldFor,
  stakeFormSchema,
  toStakeRequest,
  type StakeFormValues,
} from './stake-schema.ts';
import { useCreateForm } from './use-create-form.ts';

/** 7c: stake a chain's native asset from a vault. */
export function StakeForm({ data }: { data: PickerData }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { form, values, estimate, ctx } = useCreateForm({
    schema: stakeFormSchema,
    defaults: stakeDefaults,
    context: (v, estimate) => {
      const fee = feeOf(estimate, v.feeTier);
      return {
        decimals: decimalsOf(data, v.asset, v.blockChain),
        balance: balanceOf(data, v.sourceVaultId, v.asset, v.blockChain),
        feeInAsset: fee?.asset === v.asset ? fee.expectedFeeInAsset : undefined,
      };
    },
    toRequest: toStakeRequest,
  });
  const flow = useCreateFlow({
    form,
    draftKey: '/transactions/new#stake',
    fieldFor: stakeFieldFor,
  });
  const { errors } = form.formState;
  const fee = feeOf(estimate.ready ? estimate.query.data : undefined, values.feeTier);
  const balance = balanceOf(data, values.sourceVaultId, values.asset, values.blockChain);
  const max = maxAmount(ctx);
  const a11y = (name: keyof StakeFormValues, hint?: string) => ({
    id: f(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(f(name), { hint, error: errors[name] }),
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
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={f('memo')} label="Memo (optional)" error={errors.memo?.message}>
          <Input autoComplete="off" {...a11y('memo')} {...form.register('memo')} />
        </Field>
        <Field
          id={f('externalId')}
          label="External ID"
          hint="Your reference; made when the form opened so this stake is created once."
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

  return (
    <CreateFormShell id={id} title="Stake" flow={flow} fields={fields} reviewRows={reviewRows} />
  );
}
