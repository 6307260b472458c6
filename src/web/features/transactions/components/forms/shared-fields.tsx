import { Controller } from 'react-hook-form';
import { formatAmount } from '#contract/decimal.ts';
import type { FeeTier } from '#contract/enums.ts';
import { MEMO_MAX_LENGTH } from '#contract/transaction.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import type { useFeeEstimate } from '../../api/fee-estimate.ts';
import {
  TextField,
  narrowForm,
  useBoundControl,
  type BoundForm,
} from '../../../../components/bound-fields.tsx';
import { FeeTierPicker } from './fee-tier-picker.tsx';
import { maxAmount, type FormContext } from './form-rules.ts';

/**
 * Fields more than one create form has under the same name: the amount with
 * its "Max", the memo and the externalId, the fee tier. Each takes the form
 * by the names it shares; the forms' schemas give those names the same types.
 */

interface AmountValues {
  amount: string;
}
interface ExternalIdValues {
  externalId: string;
}
interface MemoValues extends ExternalIdValues {
  memo: string;
}
interface FeeTierValues {
  feeTier: FeeTier;
}

/** The amount sent from the vault: its balance as the hint, and "Max" (balance less a fee paid in the same asset). */
export function AmountWithMaxField<V extends AmountValues>({
  form: anyForm,
  fieldId,
  asset,
  context,
}: BoundForm<V> & {
  asset: string;
  /** What the pickers know: the balance, the precision, the fee paid in this asset. */
  context: FormContext;
}) {
  const form = narrowForm<AmountValues>(anyForm);
  const { balance, feeInAsset } = context;
  const max = maxAmount(context);
  const hint =
    balance !== undefined
      ? `${formatAmount(balance)} ${asset} available${max !== undefined && feeInAsset ? `; at most ${formatAmount(max)} after the fee` : ''}.`
      : undefined;
  const { id, error, control } = useBoundControl({ form, fieldId, name: 'amount' }, hint);
  return (
    <Field id={id} label={asset ? `Amount (${asset})` : 'Amount'} hint={hint} error={error}>
      <div className="flex gap-2">
        <Input inputMode="decimal" autoComplete="off" {...control} />
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
  );
}

/** The member's reference, made when the form opened: what lets a retry find the first send. */
export function ExternalIdField<V extends ExternalIdValues>({
  form: anyForm,
  fieldId,
  noun,
}: BoundForm<V> & {
  /** What is created once: "transfer", "call", … */
  noun: string;
}) {
  return (
    <TextField
      form={narrowForm<ExternalIdValues>(anyForm)}
      fieldId={fieldId}
      name="externalId"
      label="External ID"
      hint={`Your reference; made when the form opened so this ${noun} is created once.`}
      spellCheck={false}
    />
  );
}

/** Memo and externalId side by side, as transfers, stakes and delegations have them. */
export function MemoAndExternalIdFields<V extends MemoValues>({
  form: anyForm,
  fieldId,
  noun,
}: BoundForm<V> & { noun: string }) {
  const form = narrowForm<MemoValues>(anyForm);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        form={form}
        fieldId={fieldId}
        name="memo"
        label="Memo (optional)"
        maxChars={MEMO_MAX_LENGTH}
      />
      <ExternalIdField form={form} fieldId={fieldId} noun={noun} />
    </div>
  );
}

/** The fee-tier radio group on the form's own estimate. */
export function FeeTierField<V extends FeeTierValues>({
  form: anyForm,
  fieldId,
  blockChain,
  estimate,
}: BoundForm<V> & {
  blockChain: string;
  estimate: ReturnType<typeof useFeeEstimate>;
}) {
  const form = narrowForm<FeeTierValues>(anyForm);
  return (
    <Controller
      control={form.control}
      name="feeTier"
      render={({ field, fieldState }) => (
        <FeeTierPicker
          id={fieldId('feeTier')}
          name={field.name}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          blockChain={blockChain}
          ready={estimate.ready}
          query={estimate.query}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** What closes a transfer, stake or delegation: its memo and externalId, then its fee tier. */
export function ReferenceAndFeeFields<V extends MemoValues & FeeTierValues>({
  noun,
  blockChain,
  estimate,
  ...bound
}: BoundForm<V> & {
  noun: string;
  blockChain: string;
  estimate: ReturnType<typeof useFeeEstimate>;
}) {
  return (
    <>
      <MemoAndExternalIdFields {...bound} noun={noun} />
      <FeeTierField {...bound} blockChain={blockChain} estimate={estimate} />
    </>
  );
}
