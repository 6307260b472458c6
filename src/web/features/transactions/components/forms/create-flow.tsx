import { useBlocker, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import {
  FormActions,
  FormCard,
  FormError,
  SubmitButton,
} from '../../../../components/form-card.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../../lib/api-errors.ts';
import { usePersistentFormDraft } from '../../../../lib/use-persistent-form-draft.ts';
import { useCreateTransaction } from '../../api/create-transaction.ts';
import { useReviewPolicy } from '../../api/review-policy.ts';
import { usePreviewApprovalCard } from '../../api/preview-approval-card.ts';
import { ApprovalCardView } from '../../../../components/approval-card.tsx';

/**
 * What the four create forms share: edit → review → send once → the new
 * transaction's page. A refusal puts each field the server names back on
 * the form (`fields`); any error keeps every value; leaving a form with
 * unsent changes asks first; the values survive an expired session
 * (usePersistentFormDraft) — the externalId with them, so a send after
 * signing in again still cannot create a second transaction.
 */
export interface CreateFlow<V extends FieldValues> {
  step: 'edit' | 'review';
  request: CreateTransactionRequest | null;
  review: (request: CreateTransactionRequest) => void;
  backToEdit: () => void;
  send: () => void;
  sending: boolean;
  error: unknown;
  /** A refusal about something the form has no field for. */
  formError: string | null;
  form: UseFormReturn<V, unknown, CreateTransactionRequest>;
}

const LEAVE_QUESTION = 'Leave this form? The transaction has not been sent.';

export interface CreateFlowOptions<V extends FieldValues> {
  form: UseFormReturn<V, unknown, CreateTransactionRequest>;
  draftKey: string;
  /** The form field a server `fields` entry names, if the form has one. */
  fieldFor: (path: string, values: V) => Path<V> | undefined;
  /** Words for the audit log that travel beside the body (a header), from the values sent. */
  auditReason?: (values: V) => string | undefined;
}

export function useCreateFlow<V extends FieldValues>({
  form,
  draftKey,
  fieldFor,
  auditReason,
}: CreateFlowOptions<V>): CreateFlow<V> {
  const navigate = useNavigate();
  const create = useCreateTransaction();
  // The draft holds the values as typed; the resolver's output (the request) plays no part.
  const { clearDraft } = usePersistentFormDraft(draftKey, form as unknown as UseFormReturn<V>);
  const [step, setStep] = useState<'edit' | 'review'>('edit');
  const [request, setRequest] = useState<CreateTransactionRequest | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // Set synchronously: a second click in the same frame finds it set before React re-renders.
  const inFlight = useRef(false);
  const done = useRef(false);
  // The first refused field is focused once the form is back on screen.
  const [focusField, setFocusField] = useState<Path<V> | null>(null);
  useEffect(() => {
    if (step !== 'edit' || !focusField) return;
    form.setFocus(focusField);
  }, [step, focusField, form]);

  useBlocker({
    shouldBlockFn: ({ next }) => {
      if (done.current || !form.formState.isDirty) return false;
      // An expired session goes to sign-in with the draft saved: nothing to ask.
      if (next.pathname === '/login') return false;
      return !globalThis.confirm(LEAVE_QUESTION);
    },
    enableBeforeUnload: () => !done.current && form.formState.isDirty,
  });

  const send = () => {
    if (!request || inFlight.current || done.current) return;
    inFlight.current = true;
    setFormError(null);
    create.mutate(
      { body: request, auditReason: auditReason?.(form.getValues()) },
      {
        onSuccess: (transaction) => {
          done.current = true;
          clearDraft();
          if (!transaction.id) return;
          // The new transaction's page, where its status timeline follows it live.
          void navigate({
            to: '/transactions/$transactionId',
            params: { transactionId: transaction.id },
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400 && error.fields?.length) {
            // Back to the fields, each refusal beside the control it is about.
            setStep('edit');
            const values = form.getValues();
            const unplaced: string[] = [];
            let first: Path<V> | null = null;
            for (const { field, message } of error.fields) {
              const name = fieldFor(field, values);
              if (!name) {
                unplaced.push(message);
                continue;
              }
              form.setError(name, { type: 'server', message });
              first ??= name;
            }
            setFocusField(first);
            if (unplaced.length) setFormError(unplaced.join(' '));
          }
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return {
    step,
    request,
    review: (next) => {
      create.reset();
      setFocusField(null);
      setFormError(null);
      setRequest(next);
      setStep('review');
    },
    backToEdit: () => setStep('edit'),
    send,
    sending: create.isPending,
    error: create.error,
    formError,
    form,
  };
}

/** The form's frame: its fields while editing, the review while reviewing, errors announced in both. */
export function CreateFormShell<V extends FieldValues>({
  title,
  flow,
  fields,
  reviewRows,
}: {
  title: string;
  flow: CreateFlow<V>;
  fields: ReactNode;
  reviewRows: ReactNode;
}) {
  const sendError =
    flow.error &&
    !(flow.error instanceof ApiError && flow.error.status === 400 && flow.error.fields?.length)
      ? flow.error
      : null;
  const onSubmit = flow.form.handleSubmit((request) => flow.review(request));

  if (flow.step === 'review' && flow.request) {
    return (
      <FormCard title={`Review the ${title.toLowerCase()} before sending`} focusTitle>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          {reviewRows}
          <ApprovalsRow request={flow.request} />
        </dl>
        <PreviewCard request={flow.request} />
        {sendError ? (
          <FormError>Not sent: {describeError(sendError)} Nothing you entered was lost.</FormError>
        ) : null}
        <FormActions>
          <SendButton
            request={flow.request}
            sending={flow.sending}
            onSend={flow.send}
            label={sendError ? 'Check and send again' : 'Send transaction'}
          />
          <Button onClick={flow.backToEdit} disabled={flow.sending}>
            Back to edit
          </Button>
        </FormActions>
      </FormCard>
    );
  }

  return (
    <FormCard
      title={title}
      onSubmit={onSubmit}
      error={
        flow.formError
          ? `The custody service refused this ${title.toLowerCase()}: ${flow.formError}`
          : null
      }
    >
      {fields}
      <FormActions>
        <SubmitButton>Review</SubmitButton>
      </FormActions>
    </FormCard>
  );
}

/**
 * Which approval rule the transaction falls under and what it will need,
 * asked of the server before anything is sent (the rule is fixed on it when
 * it is created); or that the rule blocks it, by name.
 */
/**
 * Send, held until what approvers will see has been worked out: the
 * initiator sends what they have seen, and the card, arriving above the
 * button, never moves it under a pointer already on its way. A card that
 * cannot be worked out does not hold it (the server judges the transaction
 * when it is sent, and computes the card again then).
 */
function SendButton({
  request,
  sending,
  onSend,
  label,
}: {
  request: CreateTransactionRequest;
  sending: boolean;
  onSend: () => void;
  label: string;
}) {
  const preview = usePreviewApprovalCard(request);
  // Held for the first answer only: a card that failed once is not waited for through retries.
  const held = sending || (preview.isPending && preview.failureCount === 0);
  return (
    <Button variant="primary" onClick={onSend} disabled={held} aria-disabled={held}>
      {sending ? 'Sending…' : label}
    </Button>
  );
}

/** The approval card the approvers will see, computed by the server from the body about to be sent. */
function PreviewCard({ request }: { request: CreateTransactionRequest }) {
  const preview = usePreviewApprovalCard(request);
  if (preview.isPending)
    return <p className="mt-3 text-sm text-slate-700">Working out the approval card…</p>;
  if (preview.isError)
    return (
      <p className="mt-3 text-sm text-slate-800">
        The approval card is not known yet ({describeError(preview.error)}); it is computed again
        once the transaction is created.
      </p>
    );
  return <ApprovalCardView answer={preview.data} title="What approvers will see" />;
}

function ApprovalsRow({ request }: { request: CreateTransactionRequest }) {
  const review = useReviewPolicy(request);
  let text: ReactNode;
  if (review.isPending) text = 'Checking the approval policy…';
  else if (review.isError)
    text = `Not known yet (${describeError(review.error)}); the approval policy is applied when it is sent.`;
  else {
    const { requirement, summary } = review.data;
    text =
      requirement.outcome.action === 'BLOCK' ? (
        <span className="font-medium text-red-800">
          Blocked by the rule “{requirement.ruleName}”: it will be refused if you send it.
        </span>
      ) : (
        <>
          Needs {summary} (rule “{requirement.ruleName}”). The rule is fixed on the transaction when
          it is created.
        </>
      );
  }
  return (
    <ReviewRow term="Approvals">
      <span data-testid="review-approvals" aria-live="polite">
        {text}
      </span>
    </ReviewRow>
  );
}

/** One line of the review: what a treasurer checks, in words. */
export function ReviewRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="text-sm break-all text-slate-900">{children}</dd>
    </>
  );
}
