import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { ERROR_CODES } from '#contract/common.ts';
import type { Policy, PolicyState } from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { TextField, type BoundForm } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Choice } from '../../../components/ui/input.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FieldError } from '../../../components/ui/field.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { policyQueries, useSavePolicyDraft } from '../api/policy-queries.ts';
import { newRule, policyResolver, toForm, type PolicyForm } from '../policy-form.ts';
import type { CheckboxOption } from './checkbox-group.tsx';
import { OutcomeFields } from './outcome-fields.tsx';
import { RuleFields, type RuleMove } from './rule-fields.tsx';

/**
 * Whether a payment run schedule may be pre-approved: approved once with a
 * cap, its occurrences within it then paid without a vote of their own. Off
 * unless ticked; the ceiling bounds the cap a schedule may ask for.
 */
function SchedulePreApprovalFields({ bound }: { bound: BoundForm<PolicyForm> }) {
  const allowed = useWatch({ control: bound.form.control, name: 'schedulePreApproval.allowed' });
  return (
    <fieldset className="flex flex-col gap-2 rounded-md border border-slate-300 p-3 text-sm">
      <legend className="px-1 font-medium text-slate-900">Payment run schedules</legend>
      <label className="flex items-center gap-2">
        <Choice type="checkbox" {...bound.form.register('schedulePreApproval.allowed')} />
        Allow a schedule to be pre-approved up to a cap per occurrence
      </label>
      {allowed ? (
        <TextField
          {...bound}
          name="schedulePreApproval.maxOccurrenceUsd"
          label="Highest cap a schedule may ask for (USD per occurrence)"
          hint="An occurrence within its schedule's approved cap is paid without a new vote; any other is approved like a new run."
          inputMode="decimal"
        />
      ) : null}
    </fieldset>
  );
}

/** A new rule's id: unique within its policy, never shown (the diff knows a rule by it). */
const ruleId = () => `rule-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * The draft editor (admins of every sub-organization): the whole policy in
 * one form, checked by the contract's `Policy` schema, saved against the
 * revision it was read at. If someone else saved (or began a draft) since,
 * the server refuses (409 POLICY_DRAFT_CHANGED): what was typed stays in the
 * form, and reloading takes the new revision so a save replaces theirs
 * knowingly (their draft shows above, with its changes).
 */
export function PolicyEditor({
  kind,
  state,
  subOrgs,
  members,
  memberId,
  onDone,
}: {
  kind: PolicyKind;
  state: PolicyState;
  subOrgs: CheckboxOption[];
  members: CheckboxOption[];
  memberId: string | undefined;
  onDone: (message: string | null) => void;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const queryClient = useQueryClient();
  const [revision, setRevision] = useState(state.draft?.revision ?? 0);
  const [reloaded, setReloaded] = useState<string | null>(null);
  const form = useForm<PolicyForm, unknown, Policy>({
    resolver: policyResolver,
    defaultValues: toForm(state.draft?.policy ?? state.active.policy),
  });
  const rules = useFieldArray({ control: form.control, name: 'rules', keyName: 'key' });
  const save = useSavePolicyDraft(kind);
  const conflict =
    save.error instanceof ApiError && save.error.code === ERROR_CODES.policyDraftChanged;
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  });
  const [announce, setAnnounce] = useState('');

  const onSubmit = form.handleSubmit((policy) => {
    setReloaded(null);
    save.mutate(
      { policy, revision },
      {
        onSuccess: (draft) => onDone(`Draft saved: revision ${draft.revision}.`),
        onError: (error) => {
          if (!(error instanceof ApiError) || !error.fields) return;
          for (const { field, message } of error.fields) {
            const name = field.replace(/^policy\./, '');
            if (name !== field)
              form.setError(name as keyof PolicyForm, { type: 'server', message });
          }
        },
      },
    );
  });

  async function reload() {
    const fresh = await queryClient.fetchQuery({ ...policyQueries.state(kind), staleTime: 0 });
    const now = fresh.draft?.revision ?? 0;
    setRevision(now);
    save.reset();
    setReloaded(
      fresh.draft
        ? `Reloaded: the draft is now at revision ${now} (its changes show above). Your edits are kept here; saving replaces that revision with them.`
        : 'Reloaded: the draft was discarded. Your edits are kept here; saving begins a new draft with them.',
    );
  }

  function move(index: number, key: string, what: RuleMove) {
    const position = index + 1;
    if (what === 'remove') {
      rules.remove(index);
      setAnnounce(`Rule ${position} removed.`);
      focusNext.current = fieldId('add-rule');
      return;
    }
    const to = what === 'up' ? index - 1 : index + 1;
    rules.move(index, to);
    setAnnounce(`Rule moved from position ${position} to ${to + 1}.`);
    // The same button on the moved rule, or its heading where that button is now disabled.
    const edge = (what === 'up' && to === 0) || (what === 'down' && to === rules.fields.length - 1);
    focusNext.current = fieldId(`rule-${key}`) + (edge ? '' : `-${what}`);
  }

  const bound = { form, fieldId };
  const rootError = form.formState.errors.root?.message;
  return (
    <FormCard
      title={
        state.draft ? `Edit the draft (revision ${revision})` : 'New draft from the active policy'
      }
      focusTitle
      onSubmit={onSubmit}
      roomy
      error={
        conflict ? (
          <div className="flex flex-col gap-2">
            <p>
              Someone else changed the draft since you read it (or began one), so it was not saved.
              Nothing you typed is lost.
            </p>
            <div>
              <Button size="sm" onClick={() => void reload()}>
                Reload the draft, keeping my edits
              </Button>
            </div>
          </div>
        ) : save.isError && !(save.error instanceof ApiError && save.error.fields?.length) ? (
          `The draft was not saved: ${describeError(save.error)}`
        ) : null
      }
    >
      {reloaded ? (
        <p role="status" className="rounded-md border border-blue-300 bg-blue-50 p-3 text-sm">
          {reloaded}
        </p>
      ) : null}
      <p className="text-sm text-slate-700">
        Rules are tried in order; the first whose conditions all hold decides. Saving keeps the
        draft: another admin, one who did not edit it, publishes it.
        {state.draft && !state.draft.editors.some((e) => e.id === memberId)
          ? ' Saving makes you one of its editors, so you will no longer be able to publish it.'
          : ''}
      </p>
      <p role="status" className="sr-only">
        {announce}
      </p>
      {rules.fields.map((field, index) => (
        <RuleFields
          key={field.key}
          bound={bound}
          index={index}
          count={rules.fields.length}
          ruleKey={field.key}
          subOrgs={subOrgs}
          members={members}
          onMove={(what) => move(index, field.key, what)}
        />
      ))}
      <FieldError id={fieldId('rules')} error={rootError} />
      <div>
        <Button
          id={fieldId('add-rule')}
          onClick={() => {
            rules.append(newRule(ruleId()), {
              shouldFocus: true,
              focusName: `rules.${rules.fields.length}.name`,
            });
            setAnnounce(`Rule ${rules.fields.length + 1} added.`);
          }}
        >
          Add rule
        </Button>
      </div>
      <OutcomeFields
        bound={bound}
        prefix="fallback"
        members={members}
        title="Otherwise (no rule matches)"
      />
      {kind === 'transactions' ? <SchedulePreApprovalFields bound={bound} /> : null}
      <FormActions>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save draft
        </SubmitButton>
        <Button variant="ghost" onClick={() => onDone(null)}>
          Close editor
        </Button>
      </FormActions>
    </FormCard>
  );
}
