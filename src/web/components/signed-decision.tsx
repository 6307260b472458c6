import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { onlyFeeMoved, shortDigest, type ApprovalCardResponse } from '#contract/approval-card.ts';
import { describeError } from '../lib/api-errors.ts';
import { useApprovalCard } from '../lib/approval-card-queries.ts';
import { changesSentence, describeCardChanges } from '#contract/card-changes.ts';
import { isCardChanged, needsPasskey, PasskeyNotUsed } from '../lib/signed-decision.ts';
import { ApprovalCardView } from './approval-card.tsx';

/**
 * The approval card a decision dialog signs over (lib/signed-decision.ts).
 * The dialog keeps the card it showed: a decision carries that card's digest
 * and no other. When the card is read again and differs — a live update, or
 * the server refusing the decision with CARD_CHANGED — the dialog shows the
 * new card and says, in words, what changed; the member confirms again.
 */
export function useCardToSign(entityId: string) {
  const live = useApprovalCard(entityId);
  const [shown, setShown] = useState<ApprovalCardResponse | null>(null);
  const [changes, setChanges] = useState<string[] | null>(null);
  // Set when the server refused the card shown: the next card read replaces it, whatever moved.
  const [refusedDigest, setRefusedDigest] = useState<string | null>(null);
  // The first card read is the one shown; a later, different one replaces it only with the
  // changes said (React's state-from-props pattern: both settle within this render). A fee
  // that moved within the ceiling shown is not a change of what is decided (the server judges
  // the card shown the same way), so the card shown stays and its digest is the one sent.
  if (live.data && !shown) setShown(live.data);
  else if (
    live.data &&
    shown &&
    live.data.digest !== shown.digest &&
    (refusedDigest === shown.digest || !onlyFeeMoved(shown.card.intent, live.data.card.intent))
  ) {
    setChanges(describeCardChanges(shown.card.intent, live.data.card.intent));
    setShown(live.data);
    setRefusedDigest(null);
  }
  return {
    /** The card the dialog shows, and whose digest a decision carries; null until read. */
    shown,
    /** What changed when the card was last replaced under the member; null when it was not. */
    changes,
    loadError: shown ? null : live.error,
    /** The server refused the decision: a changed card is read again (and then shown). */
    refused: (error: unknown) => {
      if (!isCardChanged(error)) return;
      if (shown) setRefusedDigest(shown.digest);
      void live.refetch();
    },
    /** The member confirms again: the changes were read. */
    acknowledge: () => setChanges(null),
  };
}

type CardToSign = ReturnType<typeof useCardToSign>;

/**
 * The card in the dialog, and above the confirm button what happens on it:
 * the decision is signed with the member's passkey over this card, whose
 * short digest it names.
 */
export function CardToSignView({ card, approve }: { card: CardToSign; approve: boolean }) {
  if (!card.shown) {
    return card.loadError ? (
      <p role="alert" className="text-sm text-red-800">
        The approval card could not be read, and nothing is decided without it:{' '}
        {describeError(card.loadError)}
      </p>
    ) : (
      <p className="text-sm text-slate-700">Reading the approval card…</p>
    );
  }
  return (
    <>
      <ApprovalCardView answer={card.shown} title="The card you sign" />
      <p className="mt-2 text-sm text-slate-800" data-testid="signing-note">
        Your {approve ? 'approval' : 'decline'} is signed with your passkey over the card shown,
        intent{' '}
        <span className="font-mono" title={card.shown.digest}>
          {shortDigest(card.shown.digest)}
        </span>
        : your browser asks for the passkey once you confirm. If the card changes first, nothing is
        sent and you are shown what changed.
      </p>
    </>
  );
}

/**
 * Why nothing was decided, announced: the card changed (what, in words, and
 * that the new card is shown to check), the passkey prompt was closed, a
 * passkey must first be registered (with the way to the account page), or
 * the server's refusal.
 */
export function SignedDecisionProblem({
  card,
  error,
  approve,
}: {
  card: CardToSign;
  error: unknown;
  approve: boolean;
}) {
  const not = approve ? 'Not approved' : 'Not declined';
  let text: ReactNode;
  if (card.changes)
    text = (
      <>
        {error ? `${not}: the` : 'The'} card changed since you were shown it
        {error ? ', so nothing was sent' : ''}. {changesSentence(card.changes)} The new card is
        shown
        {card.shown ? ` (intent ${shortDigest(card.shown.digest)})` : ''}: check it and confirm
        again.
      </>
    );
  else if (!error) return null;
  else if (error instanceof PasskeyNotUsed) text = error.message;
  else if (isCardChanged(error))
    text = `${not}: the card changed since you were shown it, so nothing was sent. The card is being read again.`;
  else if (needsPasskey(error))
    text = (
      <>
        {not}: {describeError(error)} Register a passkey on{' '}
        <Link to="/account" className="underline">
          your account page
        </Link>
        , then decide again.
      </>
    );
  else text = `${not}: ${describeError(error)}`;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
      data-testid="decision-problem"
    >
      {text}
    </p>
  );
}
