import type { ReactNode } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { chainInfo, type ChainInfo } from '#contract/chains.ts';
import { RESOURCE_TYPES } from '#contract/enums.ts';
import { Field } from '../../../../components/ui/field.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { chainOptions, vaultOptions, type PickerData } from './picker-data.ts';
import {
  SelectFieldFor,
  narrowForm,
  type BoundForm,
} from '../../../../components/bound-fields.tsx';

/** The fields a stake and a delegation share: vault, chain, its native asset, TRON resource. */
interface StakeLikeValues {
  sourceVaultId: string;
  blockChain: string;
  asset: string;
  resourceType: '' | (typeof RESOURCE_TYPES)[number];
}

export function StakeLikeFields<V extends StakeLikeValues>({
  form: anyForm,
  values,
  data,
  fieldId,
  offers,
  resourceRequired,
}: BoundForm<V> & {
  values: V;
  data: PickerData;
  offers: (chain: ChainInfo) => boolean;
  resourceRequired: boolean;
}): ReactNode {
  const form = narrowForm<StakeLikeValues>(anyForm);
  const errors = form.formState.errors as FieldErrors<StakeLikeValues>;
  const chain = chainInfo(values.blockChain);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectFieldFor
        form={form}
        fieldId={fieldId}
        name="sourceVaultId"
        label="Vault"
        placeholder="Choose a vault"
        options={vaultOptions(data, values.asset, values.blockChain)}
      />
      <SelectFieldFor
        form={form}
        fieldId={fieldId}
        name="blockChain"
        label="Chain"
        placeholder="Choose a chain"
        hint="Only chains where this is offered."
        options={chainOptions(data, values.sourceVaultId, offers)}
        rules={{
          onChange: (e: { target: { value: string } }) => {
            const next = chainInfo(e.target.value);
            form.setValue('asset', next?.nativeAsset ?? '');
            if (!next?.tronResources) form.setValue('resourceType', '');
          },
        }}
      />
      <Field
        id={fieldId('asset')}
        label="Asset"
        hint="The chain's native asset."
        error={errors.asset?.message}
      >
        <output
          id={fieldId('asset')}
          aria-describedby={`${fieldId('asset')}-hint`}
          className="flex h-10 items-center text-sm text-slate-900"
        >
          {values.asset || 'set by the chain'}
        </output>
      </Field>
      {chain?.tronResources ? (
        <SelectFieldFor
          form={form}
          fieldId={fieldId}
          name="resourceType"
          label={resourceRequired ? 'Resource' : 'Resource (optional)'}
          placeholder={resourceRequired ? 'Choose bandwidth or energy' : 'None'}
          options={RESOURCE_TYPES.map((r) => ({
            value: r,
            label: humanize(r.replace('TRON_', '')),
          }))}
        />
      ) : null}
    </div>
  );
}
