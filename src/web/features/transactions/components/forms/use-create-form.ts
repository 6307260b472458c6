import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import {
  useForm,
  useWatch,
  type DefaultValues,
  type FieldValues,
  type Path,
} from 'react-hook-form';
import type { z } from 'zod';
import type { FeeTier } from '#contract/enums.ts';
import type { CreateTransactionRequest, FeeData } from '#contract/transaction.ts';
import { toEstimateBody, useFeeEstimate } from '../../api/fee-estimate.ts';
import type { FieldId } from '../../../../components/bound-fields.tsx';
import { useCreateFlow, type CreateFlowOptions } from './create-flow.tsx';
import { feeOf } from './fee-tier-picker.tsx';
import type { FormContext } from './form-rules.ts';

/**
 * A create form on its schema: the schema is rebuilt from what the pickers
 * know at validation time (precision, balance, fee), the fee estimate
 * follows the request the current values would make, and the form runs the
 * create flow (edit, review, send once; `create-flow.tsx`). `bound` is what
 * every field control takes: the form, and the form's own ids (`useId`
 * keeps two forms on one page apart).
 */
export function useCreateForm<
  V extends FieldValues & { feeTier: FeeTier },
  C extends CreateTransactionRequest['category'],
>({
  category,
  schema,
  defaults,
  toRequest,
  context,
  draftKey,
  fieldFor,
  auditReason,
}: {
  /** The kind it creates: `request`, once reviewed, is of this kind. */
  category: C;
  schema: (ctx: FormContext) => z.ZodType<CreateTransactionRequest, V>;
  defaults: () => V;
  toRequest: (values: V) => CreateTransactionRequest;
  /** What the pickers know about these values (precision, balance) and the chosen tier's fee. */
  context: (values: V, fee: FeeData | undefined) => FormContext;
} & Omit<CreateFlowOptions<V>, 'form'>) {
  const id = useId();
  const contextRef = useRef<FormContext>({});
  const form = useForm<V, unknown, CreateTransactionRequest>({
    resolver: (values, context, options) =>
      zodResolver(schema(contextRef.current))(values, context, options),
    defaultValues: defaults() as DefaultValues<V>,
    // Each field is checked as it changes (an amount over the balance, an
    // address of the wrong shape show while typing, not only at Review). Not
    // on blur: an error appearing as a field loses focus moves the layout
    // under a click.
    mode: 'onChange',
    reValidateMode: 'onChange',
  });
  const values = useWatch({ control: form.control }) as V;
  const estimate = useFeeEstimate(
    toEstimateBody(toRequest(values) as unknown as Record<string, unknown>),
  );
  // The chosen tier's fee, once the estimate is for the values on screen.
  const fee = feeOf(estimate.ready ? estimate.query.data : undefined, values.feeTier);
  const ctx = context(values, fee);
  // Validation runs on the member's events, after this: it sees what the pickers show.
  useLayoutEffect(() => {
    contextRef.current = ctx;
  });
  // The balance, precision or fee the amount is judged against may change
  // after it was typed (another vault, the estimate arriving): judge it again.
  const { trigger, getFieldState } = form;
  useEffect(() => {
    if (getFieldState('amount' as Path<V>).isDirty) void trigger('amount' as Path<V>);
  }, [ctx.balance, ctx.decimals, ctx.feeInAsset, ctx.staked, trigger, getFieldState]);
  const flow = useCreateFlow({ form, draftKey, fieldFor, auditReason });
  const fieldId: FieldId = (name) => `${id}-${name}`;
  // The request under review, of this form's kind.
  const request =
    flow.request?.category === category
      ? (flow.request as Extract<CreateTransactionRequest, { category: C }>)
      : null;
  return { form, values, estimate, fee, ctx, flow, request, bound: { form, fieldId } };
}
