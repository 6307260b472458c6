import { useEffect } from 'react';
import type { BankAccount } from '#contract/bank-account-record.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { RampKind } from '#contract/ramp-record.ts';
import { RAMP_FIAT_CURRENCIES } from '#contract/ramps.ts';
import { MEMO_MAX_LENGTH } from '#contract/transaction.ts';
import type { Asset, Vault } from '#contract/reference.ts';
import {
  SelectFieldFor,
  TextField,
  useBoundControl,
  type BoundForm,
} from '../../../components/bound-fields.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import { sidesOf, type ConvertFormValues } from '../convert-form.ts';
import {
  bankAccountOptions,
  currenciesOf,
  currencyOptions,
  rampAssetOptions,
  rampChainOptions,
  vaultOptions,
} from '../convert-options.ts';

export interface ConvertPickers {
  vaults: Vault[];
  assets: Asset[];
  accounts: BankAccount[];
  /** Off-ramp: the chosen vault's balance of the chosen asset on the chosen chain. */
  balance: string | undefined;
}

/** The fields of one kind of conversion, in the order a person reads it: what leaves, what arrives, how much. */
export function ConvertFields({
  kind,
  values,
  pickers,
  ...bound
}: BoundForm<ConvertFormValues> & {
  kind: RampKind;
  values: ConvertFormValues;
  pickers: ConvertPickers;
}) {
  const { form } = bound;
  const account = pickers.accounts.find((a) => a.id === values.bankAccountId);
  // Once the chosen account's currencies are the select's options: a rail that carries one
  // currency leaves nothing to choose; a currency the new account's rail does not carry goes.
  useEffect(() => {
    if (!account) return;
    const currencies = currenciesOf(account);
    const current = form.getValues('currency');
    if (currencies.length === 1 && current !== currencies[0])
      form.setValue('currency', currencies[0] ?? '', { shouldDirty: true });
    else if (current && !currencies.includes(current)) form.setValue('currency', '');
  }, [account, form]);
  const cryptoSide = (
    <div className="grid gap-4 sm:grid-cols-3">
      <SelectFieldFor
        {...bound}
        name="vaultId"
        label={kind === 'OFF_RAMP' ? 'From vault' : 'To vault'}
        placeholder="Choose a vault"
        options={vaultOptions(pickers.vaults)}
        rules={{ onChange: () => form.setValue('chain', '') }}
      />
      <SelectFieldFor
        {...bound}
        name="chain"
        label="Chain"
        placeholder="Choose a chain"
        options={rampChainOptions(pickers.vaults, pickers.assets, values.vaultId)}
        rules={{ onChange: () => form.setValue('asset', '') }}
      />
      <SelectFieldFor
        {...bound}
        name="asset"
        label={kind === 'OFF_RAMP' ? 'Asset sold' : 'Asset bought'}
        placeholder={values.chain ? 'Choose an asset' : 'Choose a chain first'}
        options={rampAssetOptions(pickers.assets, values.chain)}
      />
    </div>
  );
  const bankSide = (
    <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
      <SelectFieldFor
        {...bound}
        name="bankAccountId"
        label="To bank account"
        placeholder="Choose an approved account"
        hint="Approved accounts the chosen vault may pay (its own sub-organization); numbers masked."
        options={bankAccountOptions(
          pickers.accounts,
          kind === 'OFF_RAMP' ? pickers.vaults.find((v) => v.id === values.vaultId) : undefined,
        )}
      />
      <SelectFieldFor
        {...bound}
        name="currency"
        label="Paid in"
        placeholder={account ? 'Choose a currency' : 'Choose an account first'}
        options={currencyOptions(account ? currenciesOf(account) : [])}
      />
    </div>
  );
  const payerSide = (
    <SelectFieldFor
      {...bound}
      name="payCurrency"
      label="You pay in"
      placeholder="Choose a currency"
      hint="From your organization's bank: the deposit instructions follow approval."
      options={currencyOptions(RAMP_FIAT_CURRENCIES)}
    />
  );
  return (
    <>
      {kind === 'OFF_RAMP' ? (
        <>
          {cryptoSide}
          {bankSide}
        </>
      ) : kind === 'ON_RAMP' ? (
        <>
          {payerSide}
          {cryptoSide}
        </>
      ) : (
        <>
          {payerSide}
          {bankSide}
        </>
      )}
      <AmountFields kind={kind} values={values} balance={pickers.balance} {...bound} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...bound} name="memo" label="Memo (optional)" maxChars={MEMO_MAX_LENGTH} />
        <TextField
          {...bound}
          name="externalId"
          label="External ID"
          hint="Your reference; made when the form opened so this conversion is created once."
          spellCheck={false}
        />
      </div>
    </>
  );
}

/** The amount, and which side it fixes: what leaves, or what must arrive. */
function AmountFields({
  kind,
  values,
  balance,
  form,
  fieldId,
}: BoundForm<ConvertFormValues> & {
  kind: RampKind;
  values: ConvertFormValues;
  balance: string | undefined;
}) {
  const { from, to } = sidesOf(kind, values);
  const asset = values.amountSide === 'to' ? to : from;
  const hint =
    kind === 'OFF_RAMP' && balance !== undefined && from
      ? `${formatAmount(balance)} ${from} available in the vault.`
      : undefined;
  const { id, error, control } = useBoundControl({ form, fieldId, name: 'amount' }, hint);
  const sideId = fieldId('amountSide');
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-slate-800">The amount is</legend>
        {(['from', 'to'] as const).map((side) => (
          <label key={side} className="flex items-center gap-2 text-sm text-slate-900">
            <Choice
              type="radio"
              className="size-4"
              value={side}
              id={side === 'from' ? sideId : undefined}
              {...form.register('amountSide')}
            />
            {side === 'from'
              ? `What leaves${from ? ` (${from})` : ''}: the fee comes out of it`
              : `What arrives${to ? ` (${to})` : ''}: the fee is added on top`}
          </label>
        ))}
      </fieldset>
      <Field id={id} label={asset ? `Amount (${asset})` : 'Amount'} hint={hint} error={error}>
        <Input inputMode="decimal" autoComplete="off" {...control} />
      </Field>
    </div>
  );
}
