import type { ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import type { RampKind, RampQuote } from '#contract/ramp-record.ts';
import type { IntentCreateRequest } from '#contract/ramps.ts';
import { FormActions, FormCard, FormError } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useReviewRampPolicy } from '../api/review-ramp-policy.ts';
import type { ConvertFormValues } from '../convert-form.ts';
import { bankAccountLabel } from '../convert-options.ts';
import { KIND_LABELS } from '../kinds.ts';
import {
  amountOf,
  describeExpiry,
  describeFee,
  describeRate,
  describeWait,
  secondsLeft,
} from '../quote-text.ts';
import type { ConvertPickers } from './convert-fields.tsx';

function ReviewRow({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="text-sm break-words text-slate-900">{children}</dd>
    </>
  );
}

/**
 * Which approval rule the conversion falls under and what it will need,
 * asked of the server for the chosen quote before anything is sent (the rule
 * is fixed on the transaction when it is created); or that a rule blocks it,
 * by name, in which case it is not sent.
 */
function useApprovals(request: IntentCreateRequest): { text: ReactNode; blockedBy: string | null } {
  const review = useReviewRampPolicy(request);
  if (review.isPending) return { text: 'Checking the approval policy…', blockedBy: null };
  if (review.isError)
    return {
      text: `Not known yet (${describeError(review.error)}); the approval policy is applied when it is sent.`,
      blockedBy: null,
    };
  const { requirement, summary } = review.data;
  if (requirement.outcome.action === 'BLOCK')
    return {
      text: (
        <span className="font-medium text-red-800">
          Blocked by the rule “{requirement.ruleName}”: it cannot be sent.
        </span>
      ),
      blockedBy: requirement.ruleName,
    };
  return {
    text: (
      <>
        Needs {summary} (rule “{requirement.ruleName}”) before anything moves. The rule is fixed on
        the transaction when it is created.
      </>
    ),
    blockedBy: null,
  };
}

/**
 * What the member confirms: exactly what leaves, from where, and exactly
 * what arrives, where, at the chosen provider's price — the amounts of the
 * quote itself, never recomputed — with the quote's countdown.
 */
export function ConvertReview({
  kind,
  quote,
  request,
  values,
  pickers,
  stale,
  sending,
  sendError,
  onSend,
  onBack,
  onRequote,
}: {
  kind: RampKind;
  quote: RampQuote;
  /** Exactly what Send would send: the policy's review judges it. */
  request: IntentCreateRequest;
  values: ConvertFormValues;
  pickers: Omit<ConvertPickers, 'balance'>;
  /** Why the quote cannot be used any more (expired, used): the way on is a new quote. */
  stale: string | null;
  sending: boolean;
  sendError: unknown;
  onSend: () => void;
  onBack: () => void;
  onRequote: () => void;
}) {
  const now = useNow(1000);
  const approvals = useApprovals(request);
  const vault = pickers.vaults.find((v) => v.id === values.vaultId);
  const vaultText = `${vault?.vaultName ?? values.vaultId} on ${chainLabel(values.chain) || values.chain}`;
  const account = pickers.accounts.find((a) => a.id === values.bankAccountId);
  const accountText = account ? bankAccountLabel(account) : values.bankAccountId;
  const from = kind === 'OFF_RAMP' ? `vault ${vaultText}` : "your organization's bank";
  const to = kind === 'ON_RAMP' ? `vault ${vaultText}` : accountText;
  const leaves = amountOf(quote.finalFromAmount, quote.fromAsset);
  const arrives = amountOf(quote.finalToAmount, quote.toAsset);
  return (
    <FormCard title={`Review before sending: ${KIND_LABELS[kind]}`} focusTitle>
      <dl
        className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]"
        data-testid="convert-review"
      >
        <ReviewRow term="Leaves">
          <span data-testid="review-leaves">
            {leaves} from {from}
          </span>
          <span className="block text-slate-700">
            The provider's fee of {describeFee(quote)} is included.
          </span>
        </ReviewRow>
        <ReviewRow term="Arrives">
          <span data-testid="review-arrives">
            {arrives} {kind === 'ON_RAMP' ? 'in' : 'at'} {to}
          </span>
        </ReviewRow>
        <ReviewRow term="Provider">{quote.sourceName ?? 'not named'}</ReviewRow>
        <ReviewRow term="Rate">{describeRate(quote)}</ReviewRow>
        <ReviewRow term="How long">{describeWait(quote.estCompletionTimeInSec)}</ReviewRow>
        {kind !== 'OFF_RAMP' ? (
          <ReviewRow term="Then">
            Once approved, the transaction shows where to send the money; mark the deposit sent
            there.
          </ReviewRow>
        ) : null}
        <ReviewRow term="Quote">
          <span data-testid="review-expiry">{describeExpiry(secondsLeft(quote, now))}</span>
        </ReviewRow>
        {values.memo.trim() ? <ReviewRow term="Memo">{values.memo.trim()}</ReviewRow> : null}
        <ReviewRow term="External ID">{values.externalId}</ReviewRow>
        <ReviewRow term="Approvals">
          <span data-testid="review-approvals" aria-live="polite">
            {approvals.text}
          </span>
        </ReviewRow>
      </dl>
      {approvals.blockedBy ? (
        <FormError>
          Not sent: the approval rule “{approvals.blockedBy}” blocks this conversion. Ask an
          administrator about the policy, or change what you convert.
        </FormError>
      ) : stale ? (
        <FormError>{stale} Get a new quote to see today's price before sending.</FormError>
      ) : sendError ? (
        <FormError>Not sent: {describeError(sendError)} Nothing you entered was lost.</FormError>
      ) : null}
      <FormActions>
        {stale ? (
          <Button variant="primary" onClick={onRequote}>
            Get new quotes
          </Button>
        ) : (
          <Button
            variant="primary"
            onClick={onSend}
            disabled={sending || Boolean(approvals.blockedBy)}
            aria-disabled={sending || Boolean(approvals.blockedBy)}
          >
            {sending ? 'Sending…' : sendError ? 'Check and send again' : 'Send conversion'}
          </Button>
        )}
        <Button onClick={onBack} disabled={sending}>
          Back to quotes
        </Button>
      </FormActions>
    </FormCard>
  );
}
