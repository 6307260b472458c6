import { useId, useRef, type BaseSyntheticEvent } from 'react';
import {
  useForm,
  useWatch,
  type FieldErrors,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { CHAINS, chainInfo } from '#contract/chains.ts';
import { canonicalContactAddress, contactAddressProblem } from '#contract/contact-address.ts';
import { ContactCreateRequest } from '#contract/contact.ts';
import type { Contact } from '#contract/reference.ts';
import { SelectFieldFor, TextField, useBoundControl } from '../../../components/bound-fields.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import { FormActions, FormCard, FormError, SubmitButton } from '../../../components/form-card.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { useProposeContact } from '../api/propose-contact.ts';
import { AssetChoices } from './asset-choices.tsx';

interface ProposeContactValues {
  name: string;
  blockChain: string;
  address: string;
  assetList: string[];
  /** Comma-separated, as typed. */
  tags: string;
  externalId: string;
  isSmartContractAddress: boolean;
}

const EMPTY: ProposeContactValues = {
  name: '',
  blockChain: '',
  address: '',
  assetList: [],
  tags: '',
  externalId: '',
  isSmartContractAddress: false,
};

const FIELDS = ['name', 'blockChain', 'address', 'assetList', 'tags', 'externalId'] as const;
type FormField = (typeof FIELDS)[number];

function toBody(values: ProposeContactValues, subOrgId: string | undefined) {
  const tags = values.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    name: values.name,
    blockChain: values.blockChain,
    address: values.address,
    ...(values.assetList.length > 0 ? { assetList: values.assetList } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(values.externalId.trim() ? { externalId: values.externalId.trim() } : {}),
    ...(values.isSmartContractAddress ? { isSmartContractAddress: true } : {}),
    ...(subOrgId ? { subOrgId } : {}),
  };
}

/** The contract's schema decides, field by field, in the server's own words. */
function proposeContactResolver(
  subOrgId: string | undefined,
): Resolver<ProposeContactValues, unknown, ContactCreateRequest> {
  return (values) => {
    const result = ContactCreateRequest.safeParse(toBody(values, subOrgId));
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? 'name');
      const message =
        issue.code === 'invalid_type' || issue.message.startsWith(field)
          ? issue.message
          : `${field}: ${issue.message}`;
      errors[field] ??= { type: issue.code, message };
    }
    return { values: {}, errors: errors as FieldErrors<ProposeContactValues> };
  };
}

/**
 * `/contacts/new`: name, chain, address (its chain's format and checksum,
 * checked as the member types: an EVM address typed in lowercase is shown
 * checksummed once left), the assets it may receive, tags and a reference.
 */
export function ProposeContactForm({
  subOrgId,
  scopeLabel,
  onProposed,
}: {
  subOrgId: string | undefined;
  scopeLabel: string;
  onProposed: (contact: Contact) => void;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const form = useForm<ProposeContactValues, unknown, ContactCreateRequest>({
    resolver: proposeContactResolver(subOrgId),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const propose = useProposeContact();
  const sending = useRef(false);
  const blockChain = useWatch({ control: form.control, name: 'blockChain' });
  const assetList = useWatch({ control: form.control, name: 'assetList' });
  const { errors } = form.formState;
  const bound = { form, fieldId };
  const evm = chainInfo(blockChain)?.kind === 'EVM';

  const send = (body: ContactCreateRequest) => {
    if (sending.current) return;
    sending.current = true;
    propose.mutate(body, {
      onSettled: () => {
        sending.current = false;
      },
      onSuccess: onProposed,
      onError: (error) => {
        if (!(error instanceof ApiError) || !error.fields) return;
        let focus = true;
        for (const { field, message } of error.fields) {
          const name = FIELDS.find((f) => f === field);
          if (!name) continue;
          form.setError(name, { type: 'server', message }, { shouldFocus: focus });
          focus = false;
        }
      },
    });
  };
  // Built when called, not during render: it reads the sending guard.
  const onSubmit = (event?: BaseSyntheticEvent) => form.handleSubmit(send)(event);
  const fieldLevel =
    propose.error instanceof ApiError &&
    propose.error.fields?.some((f) => FIELDS.includes(f.field as FormField));

  return (
    <FormCard title="Propose a contact" titleHidden onSubmit={(e) => void onSubmit(e)} roomy>
      <p className="text-sm text-slate-700">
        Proposed in <strong className="font-medium text-slate-900">{scopeLabel}</strong>. Another
        member must approve it before anything can be sent to it.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...bound} name="name" label="Name" hint="Who the address belongs to." />
        <SelectFieldFor
          {...bound}
          name="blockChain"
          label="Chain"
          placeholder="Choose a chain"
          options={CHAINS.map((c) => ({ value: c.value, label: c.label }))}
          rules={{
            onChange: () => {
              // Assets belong to a chain: a new chain starts with none ticked.
              form.setValue('assetList', []);
              if (form.getValues('address')) void form.trigger('address');
            },
          }}
        />
      </div>
      <AddressField form={form} fieldId={fieldId} evm={evm} />
      <AssetChoices
        id={fieldId('assetList')}
        blockChain={blockChain}
        value={assetList}
        onChange={(next) => form.setValue('assetList', next, { shouldValidate: true })}
        legend="Assets it may receive"
        describedBy={`${fieldId('assetList')}-hint`}
      />
      <p id={`${fieldId('assetList')}-hint`} className="-mt-2 text-xs text-slate-700">
        None ticked: any asset of its chain.
        {errors.assetList?.message ? (
          <span role="alert" className="block text-red-800">
            {errors.assetList.message}
          </span>
        ) : null}
      </p>
      <label className="flex items-center gap-2 text-sm text-slate-900">
        <Choice
          type="checkbox"
          className="size-4 accent-blue-700"
          {...form.register('isSmartContractAddress')}
        />
        It is a smart contract (sending to it runs its code)
      </label>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          {...bound}
          name="tags"
          label="Tags (optional)"
          hint="Separated by commas, like otc, vendor."
        />
        <TextField
          {...bound}
          name="externalId"
          label="Your reference (optional)"
          hint="Your own id for this contact (externalId); unique in the organization."
        />
      </div>
      {propose.isError && !fieldLevel ? (
        <FormError>The contact was not proposed: {describeError(propose.error)}</FormError>
      ) : null}
      <FormActions>
        <SubmitButton pending={propose.isPending} pendingLabel="Proposing…">
          Propose contact
        </SubmitButton>
        <p className="text-sm text-slate-700">
          It starts as Pending and is paid only once approved.
        </p>
      </FormActions>
    </FormCard>
  );
}

function AddressField({
  form,
  fieldId,
  evm,
}: {
  form: UseFormReturn<ProposeContactValues, unknown, ContactCreateRequest>;
  fieldId: (name: string) => string;
  evm: boolean;
}) {
  const hint = evm
    ? 'EVM addresses are checked against their EIP-55 checksum; one typed in lowercase is shown checksummed.'
    : 'Checked against the chain’s format and checksum.';
  const { id, error, control } = useBoundControl({ form, fieldId, name: 'address' }, hint, {
    onBlur: () => {
      const chain = form.getValues('blockChain');
      const typed = form.getValues('address').trim();
      // Shown as it will be stored: checksummed, once it is a valid address.
      if (chain && typed && !contactAddressProblem(chain, typed)) {
        const canonical = canonicalContactAddress(chain, typed);
        if (canonical !== form.getValues('address'))
          form.setValue('address', canonical, { shouldValidate: true });
      }
    },
  });
  return (
    <Field id={id} label="Address" hint={hint} error={error}>
      <Input {...control} className="font-mono" spellCheck={false} autoComplete="off" />
    </Field>
  );
}
