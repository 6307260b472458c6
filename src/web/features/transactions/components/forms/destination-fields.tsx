import { chainInfo } from '#contract/chains.ts';
import {
  contactLabel,
  contactOptions,
  vaultName,
  vaultOptions,
  type PickerData,
} from './picker-data.ts';
import {
  SelectFieldFor,
  TextField,
  narrowForm,
  type BoundForm,
} from '../../../../components/bound-fields.tsx';
import { typedAddressNotice } from './destination-address.ts';
import { DESTINATION_KINDS, type DestinationKind } from './destination-schema.ts';
import { Choice } from '../../../../components/ui/input.tsx';

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
}: BoundForm<V> & {
  values: V;
  data: PickerData;
}) {
  const form = narrowForm<DestinationValues>(anyForm);
  const chain = chainInfo(values.blockChain);
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium text-slate-800">To</legend>
      <div className="flex flex-wrap gap-4">
        {DESTINATION_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <Choice
              type="radio"
              className="size-4 shrink-0"
              value={kind}
              {...form.register('destinationKind')}
            />
            {DESTINATION_LABELS[kind]}
          </label>
        ))}
      </div>
      {values.destinationKind === 'CONTACT' ? (
        <SelectFieldFor
          form={form}
          fieldId={fieldId}
          name="destinationContactId"
          label="Contact"
          placeholder={values.blockChain ? 'Choose a contact' : 'Choose a chain first'}
          hint="Only approved contacts on this chain that accept this asset."
          options={contactOptions(data, values.blockChain, values.asset)}
        />
      ) : values.destinationKind === 'VAULT' ? (
        <SelectFieldFor
          form={form}
          fieldId={fieldId}
          name="destinationVaultId"
          label="Destination vault"
          placeholder="Choose a vault"
          options={vaultOptions(data, values.asset, values.blockChain, values.sourceVaultId)}
        />
      ) : (
        <TextField
          form={form}
          fieldId={fieldId}
          name="destinationAddress"
          label="Destination address"
          hint={
            chain
              ? `${/^[AEIOU]/.test(chain.label) ? 'An' : 'A'} ${chain.label} address, checked before anything is sent.`
              : 'Choose a chain first.'
          }
          notice={typedAddressNotice(data, values) ?? null}
          spellCheck={false}
        />
      )}
    </fieldset>
  );
}

/** The destination as the review names it: who, and the full address where there is one. */
export function describeDestination(
  data: PickerData,
  destination: { type: string; id: string },
  blockChain: string,
): string {
  if (destination.type === 'CONTACT') return `Contact ${contactLabel(data, destination.id)}`;
  if (destination.type === 'VAULT') return `Vault ${vaultName(data, destination.id)}`;
  const notice = typedAddressNotice(data, {
    destinationAddress: destination.id,
    blockChain,
    sourceVaultId: '',
  });
  return notice
    ? `External address ${destination.id}. ${notice.text}`
    : `External address ${destination.id}`;
}
