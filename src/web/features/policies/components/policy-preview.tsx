import { toNestErrors } from '@hookform/resolvers';
import { useId } from 'react';
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import * as z from 'zod/mini';
import {
  ACTOR_KINDS,
  DESTINATION_KINDS,
  describeOutcome,
  PolicyPreviewRequest,
} from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { TRANSACTION_CATEGORIES } from '#contract/enums.ts';
import { SelectFieldFor, TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { usePreviewPolicy } from '../api/policy-queries.ts';

interface PreviewForm {
  against: 'active' | 'draft';
  category: string;
  amountUsd: string;
  destinationKind: string;
  initiatorKind: string;
  subOrgId: string;
  asset: string;
  chain: string;
}

const DEFAULTS: PreviewForm = {
  against: 'active',
  category: 'TRANSFER',
  amountUsd: '',
  destinationKind: '',
  initiatorKind: 'initiator',
  subOrgId: '',
  asset: '',
  chain: '',
};

const options = (values: readonly string[]) =>
  values.map((value) => ({
    value,
    label: value === 'api_client' ? 'API client' : humanize(value),
  }));

const given = (text: string) => text.trim().replace(/^\$/, '').replaceAll(',', '') || undefined;

function toRequest(v: PreviewForm): unknown {
  return {
    ...(v.against === 'draft' ? { draft: true } : {}),
    subOrgId: v.subOrgId || null,
    ...(v.category ? { category: v.category } : {}),
    ...(given(v.asset) ? { asset: v.asset.trim() } : {}),
    ...(given(v.chain) ? { chain: v.chain.trim() } : {}),
    amountUsd: given(v.amountUsd) ?? null,
    ...(v.destinationKind ? { destinationKind: v.destinationKind } : {}),
    initiatorKind: v.initiatorKind,
  };
}

/** The contract's request schema, each refusal on the field it names. */
const previewResolver: Resolver<PreviewForm, unknown, PolicyPreviewRequest> = (
  values,
  _context,
  options,
) => {
  const parsed = z.safeParse(PolicyPreviewRequest, toRequest(values));
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues)
    errors[issue.path.join('.') || 'root'] ??= {
      type: issue.code,
      message: issue.message.replace(' written as a string,', ','),
    };
  return { values: {}, errors: toNestErrors(errors, options) };
};

/**
 * "What would this need?": an item described by the facts a rule looks at,
 * answered by the server from the active policy or the draft — the rule that
 * applies and what it needs, as the create form's review step will say.
 */
export function PolicyPreview({
  kind,
  hasDraft,
  subOrgs,
  nameOf,
}: {
  kind: PolicyKind;
  hasDraft: boolean;
  subOrgs: Array<{ value: string; label: string }>;
  nameOf: (id: string) => string;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const form = useForm<PreviewForm, unknown, PolicyPreviewRequest>({
    resolver: previewResolver,
    defaultValues: DEFAULTS,
  });
  const preview = usePreviewPolicy(kind);
  const bound = { form, fieldId };
  const answer = preview.data;
  const asked = preview.variables;
  return (
    <FormCard
      title="What would this need?"
      onSubmit={form.handleSubmit(({ draft, ...active }) =>
        // The draft may have been published or discarded since the choice was offered.
        preview.mutate(hasDraft && draft ? { ...active, draft } : active),
      )}
      error={preview.isError ? `No answer: ${describeError(preview.error)}` : null}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectFieldFor
          {...bound}
          name="category"
          label="Category"
          placeholder="Not given"
          options={options(TRANSACTION_CATEGORIES)}
        />
        <TextField
          {...bound}
          name="amountUsd"
          label="Amount in USD"
          hint="Empty: no USD value (matches every threshold)."
          inputMode="decimal"
        />
        <SelectFieldFor
          {...bound}
          name="destinationKind"
          label="Destination kind"
          placeholder="Not given"
          options={options(DESTINATION_KINDS)}
        />
        <SelectFieldFor
          {...bound}
          name="initiatorKind"
          label="Initiator kind"
          options={options(ACTOR_KINDS)}
        />
        <SelectFieldFor
          {...bound}
          name="subOrgId"
          label="Sub-organization"
          placeholder="None"
          options={subOrgs}
        />
        <TextField {...bound} name="asset" label="Asset" hint="Like USDC. Empty: not given." />
        <TextField {...bound} name="chain" label="Chain" hint="A chain id. Empty: not given." />
        {hasDraft ? (
          <SelectFieldFor
            {...bound}
            name="against"
            label="Against"
            options={[
              { value: 'active', label: 'The active policy' },
              { value: 'draft', label: 'The draft' },
            ]}
          />
        ) : null}
      </div>
      <FormActions>
        <SubmitButton pending={preview.isPending} pendingLabel="Asking…">
          Ask
        </SubmitButton>
      </FormActions>
      <div role="status" data-testid="preview-answer" className="text-sm">
        {answer ? (
          <p className="rounded-md border border-slate-300 bg-slate-50 p-3">
            {asked?.draft ? 'Under the draft' : 'Under the active policy'}:{' '}
            {answer.requirement.ruleId === null
              ? 'no rule matches, so the fallback applies'
              : `rule “${answer.requirement.ruleName}” applies`}{' '}
            → <strong>{describeOutcome(answer.requirement.outcome, nameOf)}</strong>.
          </p>
        ) : null}
      </div>
    </FormCard>
  );
}
