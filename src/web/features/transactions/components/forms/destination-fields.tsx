import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { chainInfo } from '../../../../../contract/chains.ts';
import { Field, describedBy } from '../../../../components/ui/field.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import {
  contactLabel,
  contactOptions,
  vaultName,
  vaultOptions,
  type PickerData,
} from './picker-data.ts';
import { SelectField } from './select-field.tsx';
import { DESTINATION_KINDS, type DestinationKind } from './transfer-schema.ts';

const DESTINATION_LABELS: Record<DestinationKind, string> = {
  CONTACT: 'Approved contact',
  VAULT: 'Another vault',
  EXTERNAL_ADDRESS: 'External address',
};

interface DestinationValues {
  sourceVaultId: string;
  blockChain: string;
  asset: string;
  destinationKind: DestinationKind;
  destinationContactId: string;
  destinationVaultId: string;
  destinationAddress: string;
}

/** Where it goes: an approved contact on the chain, another vault, or an address in the chain's format. */
export function DestinationFields<V extends DestinationValues>({
  form: anyForm,
  values,
  data,
  fieldId,
}: {
  form: UseFormReturn<V, unknown, unknown>;
  values: V;
  data: PickerData;
  fieldId: (name: string) => string;
}) {
  // Transfers and delegations name these fields alike.
  const form = anyForm as unknown as UseFormReturn<DestinationValues, unknown, unknown>;
  const errors = form.formState.errors as FieldErrors<DestinationValues>;
  const chain = chainInfo(values.blockChain);
  const addressId = fieldId('destinationAddress');
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium text-slate-800">To</legend>
      <div className="flex flex-wrap gap-4">
        {DESTINATION_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              className="size-4"
              value={kind}
              {...form.register('destinationKind')}
            />
            {DESTINATION_LABELS[kind]}
          </label>
        ))}
      </div>
      {values.destinationKind === 'CONTACT' ? (
        <SelectField
          id={fieldId('destinationContactId')}
          label="Contact"
          placeholder={values.blockChain ? 'Choose a contact' : 'Choose a chain first'}
          hint="Only approved contacts on this chain that accept this asset."
          options={contactOptions(data, values.blockChain, values.asset)}
          error={errors.destinationContactId?.message}
          {...form.register('destinationContactId')}
        />
      ) : values.destinationKind === 'VAULT' ? (
        <SelectField
          id={fieldId('destinationVaultId')}
          label="Destination vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, values.asset, values.blockChain, values.sourceVaultId)}
          error={errors.destinationVaultId?.message}
          {...form.register('destinationVaultId')}
        />
      ) : (
        <Field
          id={addressId}
          label="Destination address"
          hint={
            chain
              ? `A ${chain.label} address, checked before anything is sent.`
              : 'Choose a chain first.'
          }
          error={errors.destinationAddress?.message}
        >
          <Input
            id={addressId}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.destinationAddress ? true : undefined}
            aria-describedby={describedBy(addressId, {
              hint: true,
              error: errors.destinationAddress,
            })}
            {...form.register('destinationAddress')}
          />
        </Field>
      )}
    </fieldset>
  );
}

/** The destination as the review names it: who, and the full address where there is one. */
export function describeDestination(
  data: PickerData,
  destination: { type: string; id: string },
): string {
  if (destination.type === 'CONTACT') return `Contact ${contactLabel(data, destination.id)}`;
  if (destination.type === 'VAULT') return `Vault ${vaultName(data, destination.id)}`;
  return `External address ${destination.id}`;
}
