import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalCardResponse } from '#contract/approval-card.ts';
import { describeError } from '../../../lib/api-errors.ts';
import { approvalCardQuery } from '../../../lib/approval-card-queries.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { changesSentence, describeCardChanges } from '#contract/card-changes.ts';
import {
  isCardChanged,
  PasskeyNotUsed,
  sendSignedDecision,
  sendSignedHeldDecision,
} from '../../../lib/signed-decision.ts';

/**
 * Approving several transactions in one go, from the inbox: each is sent in
 * turn as its own decision, exactly the requests its page sends (its
 * approval, looked up by the transaction's id, then the decision on it,
 * signed over that item's own approval card: one passkey prompt each), so
 * the server checks four-eyes, role and scope and writes an audit row for
 * each one as it would for a single approval. One refused does not stop the
 * others; a closed passkey prompt stops the batch there (nothing more is
 * sent). What happened to each is reported as it happens.
 */

export type BulkOutcome =
  | { state: 'waiting' }
  | { state: 'sending' }
  | { state: 'approved' }
  | { state: 'refused'; reason: string };

export interface BulkApproval {
  /** Each transaction with the approval card the dialog showed for it (null: none could be read). */
  items: ReadonlyArray<{
    id: string;
    /** An item of a kind the console holds: decided at the approval core's own route. */
    held?: boolean;
    card: ApprovalCardResponse | null;
  }>;
  onOutcome: (transactionId: string, outcome: BulkOutcome) => void;
}

const NOT_SENT_AFTER_CANCEL =
  'Nothing was sent: the passkey prompt was closed before it was signed.';

export function useApproveTransactions(onSettled?: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  /** Why an item's card no longer matches the one shown, in words. */
  const whatChanged = async (id: string, shown: ApprovalCardResponse) => {
    try {
      const now = await queryClient.fetchQuery({ ...approvalCardQuery(id), staleTime: 0 });
      return changesSentence(describeCardChanges(shown.card.intent, now.card.intent));
    } catch {
      return '';
    }
  };
  return useMutation({
    mutationFn: async ({ items, onOutcome }: BulkApproval) => {
      let approved = 0;
      let stopped = false;
      // One at a time, in the order shown: each decision is the server's to accept or refuse.
      for (const { id, held, card } of items) {
        if (stopped) {
          onOutcome(id, { state: 'refused', reason: NOT_SENT_AFTER_CANCEL });
          continue;
        }
        if (!card) {
          onOutcome(id, {
            state: 'refused',
            reason:
              'Nothing was sent: its approval card could not be read, so there was nothing shown to sign.',
          });
          continue;
        }
        onOutcome(id, { state: 'sending' });
        try {
          await (held ? sendSignedHeldDecision : sendSignedDecision)(id, card.digest, {
            action: 'approve',
          });
          approved += 1;
          onOutcome(id, { state: 'approved' });
        } catch (error) {
          if (error instanceof PasskeyNotUsed) {
            // The member closed the prompt: taken as "stop", so nothing after it is sent either.
            stopped = true;
            onOutcome(id, { state: 'refused', reason: NOT_SENT_AFTER_CANCEL });
          } else if (isCardChanged(error)) {
            const changes = await whatChanged(id, card);
            onOutcome(id, {
              state: 'refused',
              reason: `Nothing was sent: its card changed since it was shown.${changes ? ` ${changes}` : ''} Check it on its own page.`,
            });
          } else {
            onOutcome(id, { state: 'refused', reason: describeError(error) });
          }
        }
      }
      return { approved, refused: items.length - approved };
    },
    // Decided or refused (decided elsewhere meanwhile): the inbox, its count and the
    // transactions' own reads are stale.
    onSettled: () => Promise.all([invalidateApprovalInbox(queryClient), onSettled?.()]),
  });
}
