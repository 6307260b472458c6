import { Controller } from 'react-hook-form';
import { FieldError } from '../../../../components/ui/field.tsx';
import { chainInfo } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal.ts';
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
import { SelectFieldFor, TextField } from '../../../../components/bound-fields.tsx';
import { CreateFormShell, ReviewRow } from './create-flow.tsx';
import {
  chainOptions,
  sendContext,
  vaultName,
  vaultOptions,
  type PickerData,
} from './picker-data.ts';
import { FeeAndTotalRows, ReferenceRows } from './review-helpers.tsx';
import { ExternalIdField, FeeTierField } from './shared-fields.tsx';
import { useCreateForm } from './use-create-form.ts';
import { describeTransaction } from '../../../../lib/transaction-summary.ts';
import { Choice } from '../../../../components/ui/input.tsx';

/** 7b: a vault calls a contract, with the `data` variant its chain takes. */
export function ContractCallForm({ data }: { data: PickerData }) {
  const { form, values, estimate, fee, flow, request, bound } = useCreateForm({
    category: 'CONTRACT_CALL',
    schema: contractCallFormSchema,
    defaults: contractCallDefaults,
    // A call sends the chain's native asset, if anything.
    context: (v, fee) =>
      sendContext(
        data,
        {
          vaultId: v.vaultId,
          asset: chainInfo(v.blockChain)?.nativeAsset ?? '',
          chain: v.blockChain,
        },
        fee,
      ),
    toRequest: toContractCallRequest,
    draftKey: '/transactions/new#contract-call',
    fieldFor: (path, v: ContractCallFormValues) => contractCallFieldFor(path, v),
    auditReason: (v) => (v.skipSimulation ? v.skipReason.trim() : undefined),
  });
  const { errors } = form.formState;
  const chain = chainInfo(values.blockChain);
  const native = chain?.nativeAsset ?? '';
  const variant = variantOf(values.blockChain);
  const f = bound.fieldId;
  const vault = vaultName(data, values.vaultId);
  const paramsCheck = variant === 'methodParams' ? parseParams(values.params) : null;

  const fields = (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectFieldFor
          {...bound}
          name="vaultId"
          label="Vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, native, values.blockChain)}
        />
        <SelectFieldFor
          {...bound}
          name="blockChain"
          label="Chain"
          placeholder="Choose a chain"
          hint="Only chains that run contract calls."
          options={chainOptions(data, values.vaultId, (c) => c.contractCall !== null)}
        />
      </div>
      {variant === 'evm' ? (
        <div className="grid gap-4">
          <TextField
            {...bound}
            name="callData"
            label="Call data (hex)"
            hint='ABI-encoded, like "0xa9059cbb…".'
            multiline
            spellCheck={false}
          />
          <TextField
            {...bound}
            name="toAddress"
            label="Contract address (optional)"
            spellCheck={false}
          />
        </div>
      ) : variant === 'icp' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField {...bound} name="canisterId" label="Canister ID" spellCheck={false} />
          <TextField {...bound} name="method" label="Method" spellCheck={false} />
          <TextField
            {...bound}
            name="arg"
            label="Argument"
            hint="Candid-encoded argument, as the canister expects it."
            className="sm:col-span-2"
            multiline
            spellCheck={false}
          />
        </div>
      ) : variant === 'rawSigning' ? (
        <TextField
          {...bound}
          name="messageHex"
          label="Message to sign (hex)"
          multiline
          spellCheck={false}
        />
      ) : variant === 'methodParams' ? (
        <div className="grid gap-4">
          <TextField {...bound} name="method" label="Method" spellCheck={false} />
          <TextField
            {...bound}
            name="params"
            label="Parameters (JSON object)"
            hint={
              paramsCheck && 'error' in paramsCheck
                ? `Not yet valid: ${paramsCheck.error}`
                : 'Valid JSON object.'
            }
            multiline
            spellCheck={false}
          />
        </div>
      ) : null}
      <TextField
        {...bound}
        name="amount"
        label={
          native
            ? `Amount sent with the call (${native}, optional)`
            : 'Amount sent with the call (optional)'
        }
        inputMode="decimal"
      />
      <ExternalIdField {...bound} noun="call" />
      <fieldset className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">
          Preprocessing simulation
        </legend>
        <label className="flex items-center gap-2 text-sm">
          <Controller
            control={form.control}
            name="skipSimulation"
            render={({ field }) => (
              <Choice
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
        <FieldError id={f('skipSimulation')} error={errors.skipSimulation?.message} />
        {values.skipSimulation ? (
          <TextField
            {...bound}
            name="skipReason"
            label="Why the simulation must be skipped"
            hint={`Required; recorded in the audit log with your name (at most ${SKIP_REASON_MAX} characters).`}
            multiline
          />
        ) : null}
      </fieldset>
      <FeeTierField {...bound} blockChain={values.blockChain} estimate={estimate} />
    </>
  );

  const reviewRows = request ? (
    <>
      <ReviewRow term="Contract call">
        <span data-testid="review-call-summary">
          {describeTransaction({
            category: 'CONTRACT_CALL',
            blockChain: request.blockChain,
            amount: request.amount,
            asset: native,
            data: request.data,
          })}
        </span>
      </ReviewRow>
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
      <ReferenceRows externalId={request.externalId} />
    </>
  ) : null;

  return (
    <CreateFormShell title="Contract call" flow={flow} fields={fields} reviewRows={reviewRows} />
  );
}
