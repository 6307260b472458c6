import { useWatch } from 'react-hook-form';
import { DECIDING_KINDS, MAX_APPROVALS } from '#contract/policies.ts';
import { TextField, type BoundForm } from '../../../components/bound-fields.tsx';
import type { PolicyForm } from '../policy-form.ts';
import { CheckboxGroup, type CheckboxOption } from './checkbox-group.tsx';
import { Choice } from '../../../components/ui/input.tsx';

const KIND_LABELS = { approver: 'Approvers', admin: 'Admins', api_client: 'API clients' } as const;
const KIND_OPTIONS = DECIDING_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }));

/**
 * What a rule (or the fallback, `prefix` "fallback") needs: allow with N
 * approvals from kinds and/or named members, or block. The fallback always
 * allows: something must apply when no rule matches.
 */
export function OutcomeFields({
  bound,
  prefix,
  members,
  title,
}: {
  bound: BoundForm<PolicyForm>;
  prefix: 'fallback' | `rules.${number}`;
  members: CheckboxOption[];
  title: string;
}) {
  const { form, fieldId } = bound;
  const path = prefix === 'fallback' ? 'fallback' : (`${prefix}.outcome` as const);
  const action = useWatch({ control: form.control, name: `${path}.action` });
  const actionId = fieldId(`${path}.action`);
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-900">{title}</legend>
      {prefix === 'fallback' ? null : (
        <div
          role="radiogroup"
          aria-labelledby={`${actionId}-label`}
          className="flex flex-col gap-1"
        >
          <span id={`${actionId}-label`} className="text-sm font-medium text-slate-800">
            Outcome
          </span>
          <div className="flex flex-wrap gap-4">
            <label className="flex items-center gap-2 text-sm">
              <Choice type="radio" value="ALLOW" {...form.register(`${path}.action`)} />
              Allow with approvals
            </label>
            <label className="flex items-center gap-2 text-sm">
              <Choice type="radio" value="BLOCK" {...form.register(`${path}.action`)} />
              Block (refused at creation, naming the rule)
            </label>
          </div>
        </div>
      )}
      {action === 'BLOCK' ? null : (
        <>
          <TextField
            {...bound}
            name={`${path}.approvals`}
            label="Approvals needed"
            hint={`A whole number from 1 to ${MAX_APPROVALS}. The initiator never counts.`}
            inputMode="numeric"
            className="sm:max-w-48"
          />
          <CheckboxGroup
            control={form.control}
            name={`${path}.approvers.kinds`}
            id={fieldId(`${path}.approvers.kinds`)}
            legend="Who may approve: roles"
            hint="With no role and no member chosen, anyone who may approve counts."
            options={KIND_OPTIONS}
          />
          {members.length > 0 ? (
            <CheckboxGroup
              control={form.control}
              name={`${path}.approvers.memberIds`}
              id={fieldId(`${path}.approvers.memberIds`)}
              legend="Who may approve: named members"
              hint="Named members count whatever their role."
              options={members}
            />
          ) : null}
          <label className="flex items-center gap-2 text-sm">
            <Choice
              type="checkbox"
              className="size-4"
              {...form.register(`${path}.apiClientMayApproveOwn`)}
            />
            An API client may approve its own
          </label>
        </>
      )}
    </fieldset>
  );
}
