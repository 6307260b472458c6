import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { useId, useRef, useState, type BaseSyntheticEvent } from 'react';
import { useForm, useWatch, type RegisterOptions, type UseFormReturn } from 'react-hook-form';
import {
  BANK_ACCOUNT_TEXT_FIELDS,
  US_STATES,
  type BankAccount,
  type BankAccountCreateRequest,
  type BankAccountTextField,
} from '#contract/bank-account.ts';
import { isSameBankAccount, type BankAccountMatches } from '#contract/bank-account-matches.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '#contract/enums.ts';
import { FormActions, FormCard, FormError, SubmitButton } from '../../../components/form-card.tsx';
import {
  SelectFieldFor,
  TextField,
  useBoundControl,
  type FieldId,
} from '../../../components/bound-fields.tsx';
import type { Option } from '../../../components/select-field.tsx';
import { Field, FieldError } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { cn } from '../../../lib/cn.ts';
import { paymentMethodLabel } from '../../../lib/labels.ts';
import { usePersistentFormDraft } from '../../../lib/use-persistent-form-draft.ts';
import { useCreateBankAccount } from '../api/create-bank-account.ts';
import { useFindBankAccountMatches } from '../api/find-bank-account-matches.ts';
import { IdenticalAccountsWarning } from './identical-accounts-warning.tsx';
import {
  EMPTY_PROPOSAL,
  RAIL_DESCRIPTIONS,
  fieldSpec,
  groupIban,
  humanizeFieldMessage,
  isUsRail,
  proposeResolver,
  railFields,
  type ProposeFormField,
  type ProposeFormValues,
} from '../rail-fields.ts';

/**
 * Every field the form can show: the contract's account fields, the client's
 * own reference and the sub-organization.
 */
const FORM_FIELDS: readonly ProposeFormField[] = [
  ...BANK_ACCOUNT_TEXT_FIELDS,
  'clientBankAccountId',
  'subOrgId',
];

/**
 * `/bank-accounts/new`: the rail first, then exactly its fields, each checked
 * as the member types by the contract's schema. The draft survives an expired
 * session, but never holds the account or routing number. Before it is sent,
 * the server is asked whether the same account is already pending or approved
 * in scope; if so, the member is told and must choose to propose it anyway.
 */
export function ProposeBankAccountForm({
  subOrgId,
  subOrgs,
  wholeOrganization,
  onProposed,
}: {
  /** The scope chosen above: the sub-organization the form starts on. */
  subOrgId: string | undefined;
  /** The sub-organizations the member may propose in (the server's list, already their scope). */
  subOrgs: Option[];
  /** An unrestricted member may propose for no sub-organization: the whole organization. */
  wholeOrganization: boolean;
  onProposed: (account: BankAccount) => void;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  // Held to one sub-organization: that one, and nothing to choose.
  const onlySubOrg = !wholeOrganization && subOrgs.length === 1 ? subOrgs[0] : undefined;
  const startOn = subOrgs.some((s) => s.value === subOrgId) ? subOrgId : onlySubOrg?.value;
  const form = useForm<ProposeFormValues, unknown, BankAccountCreateRequest>({
    resolver: proposeResolver(!wholeOrganization),
    defaultValues: { ...EMPTY_PROPOSAL, subOrgId: startOn ?? '' },
    // Checked when a field is left, then on every keystroke until it is right.
    mode: 'onTouched',
  });
  // The sub-organization is not kept in the draft: the scope chosen above decides where it starts.
  const { clearDraft } = usePersistentFormDraft('/bank-accounts/new', form, {
    exclude: ['accountNumber', 'routingNumber', 'subOrgId'],
  });
  const create = useCreateBankAccount();
  const check = useFindBankAccountMatches();
  // What the last check found, and for which proposal: a warning holds only while the
  // numbers are those it was about.
  const [identical, setIdentical] = useState<
    (BankAccountMatches & { for: BankAccountCreateRequest }) | null
  >(null);
  // One proposal at a time: a double click delivers both clicks before the button is disabled.
  const sending = useRef(false);
  const rail = useWatch({ control: form.control, name: 'paymentMethod' });
  const { errors } = form.formState;

  const chooseRail = (next: PaymentMethod) => {
    const country = form.getValues('country');
    // US rails pay US accounts only; leaving one leaves no stale "US" behind.
    if (isUsRail(next)) form.setValue('country', 'US');
    else if (isUsRail(rail) && country === 'US') form.setValue('country', '');
    form.clearErrors();
    create.reset();
  };

  const railRadio = form.register('paymentMethod', {
    onChange: (e: { target: { value: string } }) => chooseRail(e.target.value as PaymentMethod),
  });

  const send = (body: BankAccountCreateRequest) => {
    create.mutate(body, {
      onSettled: () => {
        sending.current = false;
      },
      onSuccess: (account) => {
        clearDraft();
        onProposed(account);
      },
      onError: (error) => {
        // The server names the fields it refused: each message lands on its field.
        if (!(error instanceof ApiError) || !error.fields) return;
        let focus = true;
        for (const { field, message } of error.fields) {
          const name = FORM_FIELDS.find((f) => f === field);
          if (!name) continue;
          form.setError(
            name,
            { type: 'server', message: humanizeFieldMessage(rail, field, message) },
            { shouldFocus: focus },
          );
          focus = false;
        }
      },
    });
  };

  const proposal = (body: BankAccountCreateRequest) => ({
    paymentMethod: body.paymentMethod,
    accountNumber: body.accountNumber ?? '',
    routingNumber: body.routingNumber ?? null,
  });

  const checkThenSend = (body: BankAccountCreateRequest) => {
    if (sending.current) return;
    sending.current = true;
    create.reset();
    check.mutate(proposal(body), {
      onSuccess: (found) => {
        if (found.results.length === 0) {
          setIdentical(null);
          send(body);
          return;
        }
        sending.current = false;
        setIdentical({ ...found, for: body });
      },
      onError: () => {
        sending.current = false;
      },
    });
  };
  // Handlers built when called, not during render: they read the sending guard.
  const onSubmit = (event?: BaseSyntheticEvent) => form.handleSubmit(checkThenSend)(event);

  // Only for the proposal the warning was about: changed numbers are checked afresh.
  const sendAnyway = (body: BankAccountCreateRequest) => {
    if (!identical || !isSameBankAccount(proposal(identical.for), proposal(body))) {
      checkThenSend(body);
      return;
    }
    if (sending.current) return;
    sending.current = true;
    send(body);
  };
  const proposeAnyway = () => form.handleSubmit(sendAnyway)();

  const bound = { form, fieldId };
  const fieldLevel =
    create.error instanceof ApiError &&
    create.error.fields?.some((f) => FORM_FIELDS.includes(f.field as ProposeFormField));

  return (
    <FormCard title="Propose a bank account" titleHidden onSubmit={onSubmit} roomy>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.paymentMethod ? fieldId('paymentMethod-error') : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-slate-800">1. Payment rail</legend>
        <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {PAYMENT_METHODS.map((method) => {
            return (
              <label
                key={method}
                className={cn(
                  'flex cursor-pointer gap-3 rounded-md border p-3 has-checked:border-blue-700 has-checked:bg-blue-50 has-focus-visible:outline-2 has-focus-visible:outline-blue-700',
                  'border-slate-300',
                )}
              >
                <Choice
                  type="radio"
                  value={method}
                  className="mt-1 size-4 shrink-0 accent-blue-700"
                  aria-describedby={`${fieldId('rail')}-${method}`}
                  {...railRadio}
                />
                <span className="flex flex-col gap-0.5">
                  <span className="text-sm font-medium text-slate-900">
                    {paymentMethodLabel(method)}
                  </span>
                  <span id={`${fieldId('rail')}-${method}`} className="text-xs text-slate-700">
                    {RAIL_DESCRIPTIONS[method]}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        <FieldError id={fieldId('paymentMethod')} error={errors.paymentMethod?.message} />
      </fieldset>

      {rail ? (
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-1 text-sm font-medium text-slate-800">
            {`2. ${paymentMethodLabel(rail)} account details`}
          </legend>
          <p className="text-sm text-slate-700">
            Another member must approve it before it can be paid to.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            {onlySubOrg ? (
              <Field
                id={fieldId('subOrgId')}
                label="Sub-organization"
                hint="Your only sub-organization: the account belongs to it."
              >
                <output
                  id={fieldId('subOrgId')}
                  aria-describedby={`${fieldId('subOrgId')}-hint`}
                  className="flex h-10 items-center text-sm text-slate-900"
                >
                  {onlySubOrg.label}
                </output>
              </Field>
            ) : (
              <SelectFieldFor
                {...bound}
                name="subOrgId"
                label="Sub-organization"
                hint="Who the account belongs to; set once, when it is proposed."
                placeholder={
                  wholeOrganization ? 'None: the whole organization' : 'Choose a sub-organization'
                }
                options={subOrgs}
              />
            )}

            {railFields(rail).map((name) => (
              <RailField key={`${rail}-${name}`} {...bound} rail={rail} name={name} />
            ))}
            <TextField
              {...bound}
              name="clientBankAccountId"
              label="Your reference (optional)"
              hint="Your own id for this account (clientBankAccountId), shown on its page."
            />
          </div>
        </fieldset>
      ) : null}

      {create.isError && !fieldLevel ? (
        <FormError>The bank account was not proposed: {describeError(create.error)}</FormError>
      ) : null}
      {check.isError ? (
        <FormError>
          The bank account was not proposed: the check for an identical account failed:{' '}
          {describeError(check.error)}
        </FormError>
      ) : null}
      {identical && !create.isSuccess ? (
        <IdenticalAccountsWarning
          matches={identical.results}
          complete={identical.complete}
          pending={create.isPending}
          onProposeAnyway={() => void proposeAnyway()}
        />
      ) : null}
      <FormActions>
        <SubmitButton pending={check.isPending || create.isPending} pendingLabel="Proposing…">
          Propose bank account
        </SubmitButton>
        <p className="text-sm text-slate-700">
          It starts as Pending and is paid to only once approved.
        </p>
      </FormActions>
    </FormCard>
  );
}

type ProposeForm = UseFormReturn<ProposeFormValues, unknown, BankAccountCreateRequest>;

/** How a rail's field is read: upper-cased where its spec says, an IBAN grouped when left. */
function railFieldRules(
  form: ProposeForm,
  rail: PaymentMethod,
  name: BankAccountTextField,
): RegisterOptions<ProposeFormValues, BankAccountTextField> {
  const spec = fieldSpec(rail, name);
  const ibanRail = rail === 'SEPA' || rail === 'SWIFT';
  return {
    ...(spec.upperCase ? { setValueAs: (v: string) => v.toUpperCase() } : {}),
    onBlur:
      name === 'accountNumber' && ibanRail
        ? () => {
            // Shown grouped by four, as printed on statements; sent without spaces.
            const typed = form.getValues('accountNumber');
            const grouped = groupIban(typed);
            if (grouped !== typed) form.setValue('accountNumber', grouped);
            const iban = electronicFormatIBAN(typed);
            if (rail === 'SEPA' && iban && isValidIBAN(iban) && !form.getValues('country')) {
              form.setValue('country', iban.slice(0, 2), { shouldValidate: true });
            }
          }
        : undefined,
  };
}

function RailField({
  form,
  fieldId,
  rail,
  name,
}: {
  form: ProposeForm;
  fieldId: FieldId;
  rail: PaymentMethod;
  name: BankAccountTextField;
}) {
  const spec = fieldSpec(rail, name);
  const { id, error, control } = useBoundControl(
    { form, fieldId, name },
    spec.hint,
    railFieldRules(form, rail, name),
  );
  if (name === 'state' && isUsRail(rail)) {
    return (
      <Field id={id} label={spec.label} hint={spec.hint} error={error}>
        <Select {...control}>
          <option value="">Choose a state</option>
          {US_STATES.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </Select>
      </Field>
    );
  }
  const fixedCountry = name === 'country' && isUsRail(rail);
  return (
    <Field id={id} label={spec.label} hint={spec.hint} error={error}>
      <Input
        {...control}
        readOnly={fixedCountry}
        autoComplete={spec.autoComplete ?? 'off'}
        inputMode={spec.inputMode}
        maxLength={spec.maxLength}
        spellCheck={false}
        className={spec.upperCase ? 'uppercase' : undefined}
      />
    </Field>
  );
}
