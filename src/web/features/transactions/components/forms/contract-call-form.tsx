import { useId } from 'react';
import { Controller } from 'react-hook-form';
import { chainInfo } from '../../../../../contract/chains.ts';
import { formatAmount } from '../../../../../contract/decimal.ts';
import { Field, describedBy } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import {
  SKIP_REASON_MAX,
  contractCallDefaults,
  contractCallFieldFor,
  contractCallFormSchema,
  parseParams,
  toContractCallRequest,
  variantOf,
  type ContractCallFormValues,
} from './contract-call-schema.ts';
import { CreateFormShell, ReviewRow, useCreateFlow } from './create-flow.tsx';
import { FeeTierPicker, feeOf } from './fee-tier-picker.tsx';
import {
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
import { useCreateForm } from './use-create-form.ts';

const textareaClass =
  'min-h-24 w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 aria-invalid:border-red-700';

/** 7b: a vault calls a contract, with the `data` variant its chain takes. */
export function ContractCallForm({ data }: { data: PickerData }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const { form, values, estimate } = useCreateForm({
    schema: contractCallFormSchema,
    defaults: contractCallDefaults,
    context: (v, estimate) => {
      const fee = feeOf(estimate, v.feeTier);
      const nativeAsset = chainInfo(v.blockChain)?.nativeAsset ?? '';
      return {
        decimals: decimalsOf(data, nativeAsset, v.blockChain),
        balance: balanceOf(data, v.vaultId, nativeAsset, v.blockChain),
        feeInAsset: fee?.asset === nativeAsset ? fee.expectedFeeInAsset : undefined,
      };
    },
    toRequest: toContractCallRequest,
  });
  const flow = useCreateFlow({
    form,
    draftKey: '/transactions/new#contract-call',
    fieldFor: (path, v: ContractCallFormValues) => contractCallFieldFor(path, v),
    auditReason: () =>
      form.getValues('skipSimulation') ? form.getValues('skipReason').trim() : undefined,
  });
  const { errors } = form.formState;
  const chain = chainInfo(values.blockChain);
  const native = chain?.nativeAsset ?? '';
  const variant = variantOf(values.blockChain);
  const fee = feeOf(estimate.ready ? estimate.query.data : undefined, values.feeTier);
  const a11y = (name: keyof ContractCallFormValues, hint?: string) => ({
    id: f(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(f(name), { hint, error: errors[name] }),
  });
  const request = flow.request?.category === 'CONTRACT_CALL' ? flow.request : null;
  const vault = vaultName(data, values.vaultId);
  const paramsCheck = variant === 'methodParams' ? parseParams(values.params) : null;

  const fields = (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          id={f('vaultId')}
          label="Vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, native, values.blockChain)}
          error={errors.vaultId?.message}
          {...form.register('vaultId')}
        />
        <SelectField
          id={f('blockChain')}
          label="Chain"
          placeholder="Choose a chain"
          hint="Only chains that run contract calls."
          options={chainOptions(data, values.vaultId, (c) => c.contractCall !== null)}
          error={errors.blockChain?.message}
          {...form.register('blockChain')}
        />
      </div>
      {variant === 'evm' ? (
        <div className="grid gap-4">
          <Field
            id={f('callData')}
            label="Call data (hex)"
            hint='ABI-encoded, like "0xa9059cbb…".'
            error={errors.callData?.message}
          >
            <textarea
              className={textareaClass}
              spellCheck={false}
              {...a11y('callData', 'hint')}
              {...form.register('callData')}
            />
          </Field>
          <Field
            id={f('toAddress')}
            label="Contract address (optional)"
            error={errors.toAddress?.message}
          >
            <Input
              autoComplete="off"
              spellCheck={false}
              {...a11y('toAddress')}
              {...form.register('toAddress')}
            />
          </Field>
        </div>
      ) : variant === 'icp' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={f('canisterId')} label="Canister ID" error={errors.canisterId?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              {...a11y('canisterId')}
              {...form.register('canisterId')}
            />
          </Field>
          <Field id={f('method')} label="Method" error={errors.method?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              {...a11y('method')}
              {...form.register('method')}
            />
          </Field>
          <Field
            id={f('arg')}
            label="Argument"
            hint="Candid-encoded argument, as the canister expects it."
            error={errors.arg?.message}
            className="sm:col-span-2"
          >
            <textarea
              className={textareaClass}
              spellCheck={false}
              {...a11y('arg', 'hint')}
              {...form.register('arg')}
            />
          </Field>
        </div>
      ) : variant === 'rawSigning' ? (
        <Field
          id={f('messageHex')}
          label="Message to sign (hex)"
          error={errors.messageHex?.message}
        >
          <textarea
            className={textareaClass}
            spellCheck={false}
            {...a11y('messageHex')}
            {...form.register('messageHex')}
          />
        </Field>
      ) : variant === 'methodParams' ? (
        <div className="grid gap-4">
          <Field id={f('method')} label="Method" error={errors.method?.message}>
            <Input
              autoComplete="off"
              spellCheck={false}
              {...a11y('method')}
              {...form.register('method')}
            />
          </Field>
          <Field
            id={f('params')}
            label="Parameters (JSON object)"
            hint={
              paramsCheck && 'error' in paramsCheck
                ? `Not yet valid: ${paramsCheck.error}`
                : 'Valid JSON object.'
            }
            error={errors.params?.message}
          >
            <textarea
              className={textareaClass}
              spellCheck={false}
              {...a11y('params', 'hint')}
              {...form.register('params')}
            />
          </Field>
        </div>
      ) : null}
      <Field
        id={f('amount')}
        label={
          native
            ? `Amount sent with the call (${native}, optional)`
            : 'Amount sent with the call (optional)'
        }
        error={errors.amount?.message}
      >
        <Input
          inputMode="decimal"
          autoComplete="off"
          {...a11y('amount')}
          {...form.register('amount')}
        />
      </Field>
      <Field
        id={f('externalId')}
        label="External ID"
        hint="Your reference; made when the form opened so this call is created once."
        error={errors.externalId?.message}
      >
        <Input
          autoComplete="off"
          spellCheck={false}
          {...a11y('externalId', 'hint')}
          {...form.register('externalId')}
        />
      </Field>
      <fieldset className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">
          Preprocessing simulation
        </legend>
        <label className="flex items-center gap-2 text-sm">
          <Controller
            control={form.control}
            name="skipSimulation"
            render={({ field }) => (
              <input
                type="checkbox"
                className="size-4"
                id={f('skipSimulation')}
                aria-describedby={
                  errors.skipSimulation ? `${f('skipSimulation')}-error` : undefined
                }
                name={field.name}
                ref={field.ref}
                checked={field.value}
                onChange={(e) => field.onChange(e.target.checked)}
                onBlur={field.onBlur}
              />
            )}
          />
          Skip the preprocessing simulation for this call
        </label>
        {errors.skipSimulation ? (
          <p id={`${f('skipSimulation')}-error`} role="alert" className="text-sm text-red-800">
            {errors.skipSimulation.message}
          </p>
        ) : null}
        {values.skipSimulation ? (
          <Field
            id={f('skipReason')}
            label="Why the simulation must be skipped"
            hint={`Required; recorded in the audit log with your name (at most ${SKIP_REASON_MAX} characters).`}
            error={errors.skipReason?.message}
          >
            <textarea
              className={textareaClass}
              {...a11y('skipReason', 'hint')}
              {...form.register('skipReason')}
            />
          </Field>
        ) : null}
      </fieldset>
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
      <ReviewRow term="Contract call">on {chainLabelOf(request.blockChain)}</ReviewRow>
      <ReviewRow term="From">{vault}</ReviewRow>
      <ReviewRow term="Call">
        <code className="whitespace-pre-wrap">{JSON.stringify(request.data ?? {}, null, 2)}</code>
      </ReviewRow>
      <ReviewRow term="Amount sent with the call">
        {request.amount ? `${formatAmount(request.amount)} ${native}` : 'none'}
      </ReviewRow>
      <FeeAndTotalRows
        tier={values.feeTier}
        fee={fee}
        amount={request.amount}
        asset={request.amount ? native : undefined}
        vault={vault}
      />
      <ReviewRow term="Preprocessing simulation">
        {request.creationOptions?.skipPreprocessSimulation
          ? `Skipped. Reason for the audit log: ${values.skipReason.trim()}`
          : 'Runs as usual'}
      </ReviewRow>
      <ReviewRow term="External ID">{request.externalId ?? 'none'}</ReviewRow>
    </>
  ) : null;

  return (
    <CreateFormShell
      id={id}
      title="Contract call"
      flow={flow}
      fields={fields}
      reviewRows={reviewRows}
    />
  );
}
