import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { STAFF_ROLES, StaffCreateRequest, type StaffChangeAnswer } from '#contract/auth.ts';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { SelectFieldFor, TextField } from '../../../components/bound-fields.tsx';
import { FieldError } from '../../../components/ui/field.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { usePersistentFormDraft } from '../../../lib/use-persistent-form-draft.ts';
import { useCreateStaffMember } from '../api/staff-queries.ts';
import { Choice } from '../../../components/ui/input.tsx';

/**
 * The contract's create body, with sub-organizations as the form holds them:
 * "all" or a chosen list (at least one).
 */
const { email, name, role } = StaffCreateRequest.shape;
const FormFields = z.strictObject({
  email,
  name,
  role,
  allSubOrgs: z.boolean(),
  subOrgIds: z.array(z.string()),
});
const CreateStaffFormSchema = FormFields.refine((v) => v.allSubOrgs || v.subOrgIds.length > 0, {
  path: ['subOrgIds'],
  message: 'choose at least one sub-organization, or all of them',
});
/** An admin of some sub-organizations chooses among theirs: "all" is not theirs to grant. */
const RestrictedFormSchema = FormFields.refine((v) => v.subOrgIds.length > 0, {
  path: ['subOrgIds'],
  message: 'choose at least one of the sub-organizations you administer',
});
type FormInput = z.input<typeof CreateStaffFormSchema>;
type FormOutput = z.output<typeof CreateStaffFormSchema>;
const FIELDS = ['email', 'name', 'role', 'subOrgIds'] as const;

const ROLE_OPTIONS = STAFF_ROLES.map((role) => ({ value: role, label: humanize(role) }));

const DEFAULTS: FormInput = {
  email: '',
  name: '',
  role: 'viewer',
  allSubOrgs: true,
  subOrgIds: [],
};

export function CreateStaffForm({
  subOrgOptions,
  restricted = false,
}: {
  subOrgOptions: Array<{ value: string; label: string }>;
  /**
   * The admin is held to some sub-organizations: they add members to those
   * only (the options), never to all of them; the server refuses otherwise.
   */
  restricted?: boolean;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const defaults: FormInput = restricted ? { ...DEFAULTS, allSubOrgs: false } : DEFAULTS;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(restricted ? RestrictedFormSchema : CreateStaffFormSchema),
    defaultValues: defaults,
  });
  // An expired session mid-form must not lose what was typed.
  const { clearDraft } = usePersistentFormDraft('/staff#create', form);
  const create = useCreateStaffMember();
  const [created, setCreated] = useState<StaffChangeAnswer | null>(null);
  const { errors } = form.formState;
  const allSubOrgs = useWatch({ control: form.control, name: 'allSubOrgs' });

  const onSubmit = form.handleSubmit(({ allSubOrgs: all, subOrgIds, ...rest }) => {
    setCreated(null);
    create.mutate(
      { ...rest, subOrgIds: all && !restricted ? null : subOrgIds },
      {
        onSuccess: (answer) => {
          clearDraft();
          form.reset(defaults);
          setCreated(answer);
        },
        onError: (error) => {
          // The server names the fields it refused: show each next to its control.
          if (error instanceof ApiError && error.fields) {
            for (const { field, message } of error.fields) {
              const name = FIELDS.find((f) => f === field);
              if (name) form.setError(name, { type: 'server', message }, { shouldFocus: true });
            }
          }
        },
      },
    );
  });

  const bound = { form, fieldId };
  const fieldLevel = create.error instanceof ApiError && create.error.fields?.length;

  return (
    <FormCard
      title="Add a staff member"
      onSubmit={onSubmit}
      error={
        create.isError && !fieldLevel
          ? `The member could not be added: ${describeError(create.error)}`
          : null
      }
    >
      {created ? <CreatedNotice answer={created} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField {...bound} name="email" label="Email" type="email" />
        <TextField {...bound} name="name" label="Name" />
        <SelectFieldFor
          {...bound}
          name="role"
          label="Role"
          options={ROLE_OPTIONS}
          hint="An approver or admin is added once another admin approves."
        />
      </div>
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.subOrgIds ? fieldId('subOrgIds-error') : undefined}
      >
        <legend className="text-sm font-medium text-slate-800">Sub-organizations</legend>
        {restricted ? (
          <p className="text-sm text-slate-700">
            You administer these sub-organizations only: the member may act in some or all of them.
          </p>
        ) : (
          <label className="flex items-center gap-2 text-sm">
            <Choice type="checkbox" className="size-4" {...form.register('allSubOrgs')} />
            All sub-organizations
          </label>
        )}
        {restricted || !allSubOrgs
          ? subOrgOptions.map((option) => (
              <label key={option.value} className="flex items-center gap-2 pl-6 text-sm">
                <Choice
                  type="checkbox"
                  className="size-4"
                  value={option.value}
                  {...form.register('subOrgIds')}
                />
                {option.label}
              </label>
            ))
          : null}
        <FieldError id={fieldId('subOrgIds')} error={errors.subOrgIds?.message} />
      </fieldset>
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Adding…">
          Add staff member
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

/**
 * What the create did, and the member's set-up link, shown this once: the
 * member chooses their own password with it (the admin never sets one).
 */
function CreatedNotice({ answer }: { answer: StaffChangeAnswer }) {
  const id = useId();
  const subject = answer.member ?? answer.proposal?.subject;
  const role = answer.member?.role ?? answer.proposal?.change.role;
  const link = answer.setup
    ? `${typeof window === 'undefined' ? '' : window.location.origin}/setup#${answer.setup.token}`
    : null;
  return (
    <div
      role="status"
      className="flex flex-col gap-2 rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
    >
      <p>
        {answer.outcome === 'proposed'
          ? `Adding ${subject?.name ?? ''} (${subject?.email ?? ''}) as ${humanize(role ?? '')} is proposed: another admin must approve it before the account exists.`
          : `${subject?.name ?? ''} (${subject?.email ?? ''}) was added as ${humanize(role ?? '')}.`}
      </p>
      {link ? (
        <>
          <label htmlFor={`${id}-link`} className="font-medium">
            Set-up link (shown once)
          </label>
          <input
            id={`${id}-link`}
            readOnly
            value={link}
            aria-describedby={`${id}-link-hint`}
            className="w-full rounded border border-green-300 bg-white px-2 py-1 font-mono text-xs"
            onFocus={(e) => e.currentTarget.select()}
          />
          <p id={`${id}-link-hint`}>
            Give it to the member privately: with it they choose their own password, then set up
            their second factor when they first sign in.{' '}
            {answer.setup?.expiresAt
              ? `It works once, for 72 hours.`
              : 'It works once, for 72 hours from the approval.'}
          </p>
        </>
      ) : null}
    </div>
  );
}
