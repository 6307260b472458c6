import { shortDigest, type CardVoidedVote } from '#contract/approval-card.ts';
import type { StoredSignature } from '#contract/approval-signature.ts';
import { ApiError, describeError } from '../lib/api-errors.ts';
import { useApprovalSignatures } from '../lib/approval-card-queries.ts';
import { DateTime } from './date-time.tsx';
import { Panel } from './panel.tsx';

/**
 * "Signatures" on an item's page: every decision recorded on it, each
 * signature checked again by the server against the stored public key, in
 * the server's summary line ("1 of 1 signatures valid over intent 3f9a12c4…be01:
 * …") and one line per decision — who, when, with which passkey or security
 * key, whether the signature is valid, and whether the vote still counts or
 * why it no longer does (the card changed after it was signed).
 */
export function SignaturesPanel({
  entityId,
  revision,
}: {
  entityId: string;
  /** What the page knows changed on the item (its status…): the signatures are read again. */
  revision?: string;
}) {
  const query = useApprovalSignatures(entityId, revision);
  // An item with no approval of its own (an incoming transfer) has nothing to show.
  if (query.error instanceof ApiError && query.error.status === 404) return null;
  return (
    <Panel title="Signatures">
      {query.isPending ? (
        <p className="mt-2 text-sm text-slate-700">Checking the signatures…</p>
      ) : query.isError ? (
        <p className="mt-2 text-sm text-red-800">
          The signatures could not be checked: {describeError(query.error)}
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-900" data-testid="signatures-summary">
            {query.data.signatures.length ? query.data.summary : 'No decision recorded yet.'}
          </p>
          {query.data.signatures.length ? (
            <ul className="mt-2 flex flex-col gap-2 text-sm" data-testid="signatures-list">
              {query.data.signatures.map((s) => (
                <li
                  key={`${s.decidedBy}:${s.decidedAt}`}
                  className="rounded-md border border-slate-200 p-2"
                >
                  <SignatureLine signature={s} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </Panel>
  );
}

function SignatureLine({ signature: s }: { signature: StoredSignature }) {
  const signed = s.credentialName !== null;
  return (
    <>
      <span className="font-medium text-slate-900">
        {s.decision === 'APPROVED' ? 'Approved' : 'Declined'} by {s.decidedBy}
      </span>{' '}
      <span className="text-slate-700">
        (<DateTime iso={s.decidedAt} />)
      </span>
      <span className="block text-slate-800">
        {signed
          ? `Signed with ${s.credentialName}${s.credentialKind ? ` (${s.credentialKind})` : ''}`
          : 'Not signed with a passkey'}{' '}
        over intent{' '}
        <span className="font-mono" title={s.digest}>
          {shortDigest(s.digest)}
        </span>
      </span>
      {signed || !s.valid ? (
        <span className={`block ${s.valid ? 'text-green-800' : 'font-medium text-red-800'}`}>
          {s.valid ? 'Signature valid' : `Signature not valid: ${s.problem ?? 'it did not verify'}`}
        </span>
      ) : null}
      <span className={`block ${s.counts ? 'text-slate-800' : 'font-medium text-red-800'}`}>
        {s.counts
          ? 'Counts toward the approval'
          : `No longer counts: ${s.voidedBecause ?? 'the card changed after it was signed'}`}
      </span>
    </>
  );
}

/** The card's decisions made on an earlier card, which no longer count: who, when and why. */
export function VoidedVotes({ voided }: { voided: readonly CardVoidedVote[] }) {
  if (!voided.length) return null;
  return (
    // Spans, not a list: it sits inside the card's quorum line.
    <span className="mt-1 block font-medium text-red-800" data-testid="card-voided">
      {voided.map((v) => (
        <span key={`${v.name}:${v.at}`} className="block">
          No longer counts: {v.name}’s approval (<DateTime iso={v.at} />) — {v.because}
        </span>
      ))}
    </span>
  );
}
