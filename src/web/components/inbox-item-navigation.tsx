import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useRouterState, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import { approvalInboxQueries } from '../lib/approval-inbox-queries.ts';
import {
  describeItem,
  inboxListParams,
  inboxNeighbours,
  inboxSearch,
  type InboxKey,
  type InboxPlace,
} from '../lib/approval-inbox-items.ts';
import { useCan } from '../lib/permissions.ts';
import { usePageShortcut } from './shortcuts.tsx';

/**
 * The approvals inbox around a transaction or bank account opened from it:
 * back to the inbox, the previous and next item (also `k` and `j`), and,
 * once the member has decided this one, the next item waiting for their
 * decision — offered as a link that takes focus, never opened or decided by
 * itself, with the outcome just recorded kept on screen above it and read
 * with it — or word that the inbox is empty. Nothing shows on a page reached
 * any other way.
 */

const linkClass =
  'font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/** The inbox page an item page was opened from, kept in its history entry. */
export function useInboxPlace(): InboxPlace | undefined {
  return useRouterState({ select: (s) => s.location.state.approvalInbox });
}

/** A link to an item's page that carries the inbox page it belongs to. */
export function InboxItemLink({
  item,
  place,
  children,
  className = linkClass,
  ref,
  ...aria
}: {
  item: Pick<ApprovalItem, 'kind' | 'id'>;
  place: InboxPlace;
  children: ReactNode;
  className?: string;
  ref?: Ref<HTMLAnchorElement>;
  'aria-describedby'?: string | undefined;
}) {
  const state = { approvalInbox: place };
  // An item of a kind the console holds has no page of its own: its card is in the inbox.
  if (item.kind === 'HELD')
    return (
      <Link ref={ref} to="/approvals" search={inboxSearch(place)} className={className} {...aria}>
        {children}
      </Link>
    );
  // A history entry of its own: Back returns to where the member was.
  if (item.kind === 'CONTACT')
    return (
      <Link
        ref={ref}
        to="/contacts/$contactId"
        params={{ contactId: item.id }}
        state={state}
        className={className}
        {...aria}
      >
        {children}
      </Link>
    );
  return item.kind === 'TRANSACTION' ? (
    <Link
      ref={ref}
      to="/transactions/$transactionId"
      params={{ transactionId: item.id }}
      state={state}
      className={className}
      {...aria}
    >
      {children}
    </Link>
  ) : (
    <Link
      ref={ref}
      to="/bank-accounts/$bankAccountId"
      params={{ bankAccountId: item.id }}
      state={state}
      className={className}
      {...aria}
    >
      {children}
    </Link>
  );
}

export function InboxItemNavigation(props: {
  current: InboxKey;
  /** The member has just decided this item: offer the next one. */
  decided: boolean;
  /** The element saying what the decision did, read with the next-item link. */
  outcomeId?: string | undefined;
}) {
  const place = useInboxPlace();
  const decides = useCan('approve');
  if (!place || !decides) return null;
  return <Around place={place} {...props} />;
}

function Around({
  place,
  current,
  decided,
  outcomeId,
}: {
  place: InboxPlace;
  current: InboxKey;
  decided: boolean;
  outcomeId?: string | undefined;
}) {
  const { subOrg } = useSearch({ from: '/_authenticated' });
  const inbox = useQuery(approvalInboxQueries.list(inboxListParams(subOrg, place)));
  const navigate = useNavigate();
  const items = inbox.data?.results ?? [];
  const { previous, next, nextToDecide } = inboxNeighbours(items, current);

  const open = (item: ApprovalItem | undefined) => {
    if (!item) return;
    const state = { approvalInbox: place };
    if (item.kind === 'HELD') {
      void navigate({ to: '/approvals', search: inboxSearch(place) });
      return;
    }
    if (item.kind === 'CONTACT') {
      void navigate({ to: '/contacts/$contactId', params: { contactId: item.id }, state });
      return;
    }
    void (item.kind === 'TRANSACTION'
      ? navigate({ to: '/transactions/$transactionId', params: { transactionId: item.id }, state })
      : navigate({
          to: '/bank-accounts/$bankAccountId',
          params: { bankAccountId: item.id },
          state,
        }));
  };
  // Listed whenever the page belongs to the inbox; at either end of its page they do nothing.
  usePageShortcut('j', 'Next item in the approvals inbox', () => open(next));
  usePageShortcut('k', 'Previous item in the approvals inbox', () => open(previous));

  return (
    <nav aria-label="Approvals inbox" className="flex flex-col gap-2">
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <Link to="/approvals" search={inboxSearch(place)} className={linkClass}>
          ← Approvals inbox
        </Link>
        {previous ? (
          <InboxItemLink item={previous} place={place}>
            Previous item<span className="sr-only">{`: ${describeItem(previous)}`}</span>
          </InboxItemLink>
        ) : null}
        {/* Once decided, the next item to decide is offered below instead. */}
        {next && !decided ? (
          <InboxItemLink item={next} place={place}>
            Next item<span className="sr-only">{`: ${describeItem(next)}`}</span>
          </InboxItemLink>
        ) : null}
      </p>
      {decided ? (
        <AfterDecision
          place={place}
          next={nextToDecide}
          waiting={inbox.data?.actionableCount}
          settled={inbox.isSuccess && !inbox.isFetching}
          outcomeId={outcomeId}
        />
      ) : null}
    </nav>
  );
}

/** What comes after a decision: the next item to decide, or an empty inbox. */
function AfterDecision({
  place,
  next,
  waiting,
  settled,
  outcomeId,
}: {
  place: InboxPlace;
  next: ApprovalItem | undefined;
  waiting: number | undefined;
  settled: boolean;
  outcomeId: string | undefined;
}) {
  const linkRef = useRef<HTMLAnchorElement>(null);
  const emptyRef = useRef<HTMLParagraphElement>(null);
  // The first answer read after the decision is the one offered: the link does not change
  // under the member's focus when the inbox is read again later.
  const [offered, setOffered] = useState<{
    next: ApprovalItem | undefined;
    waiting: number | undefined;
  } | null>(null);
  if (settled && !offered) setOffered({ next, waiting });
  const shown = offered?.next;
  const empty = offered !== null && !shown && offered.waiting === 0;
  // Once, when there is an answer: to the next item, or to the word that nothing is left.
  // The outcome stays on screen above and is read with either.
  const moved = useRef(false);
  useEffect(() => {
    if (moved.current || !offered) return;
    const target = shown ? linkRef.current : empty ? emptyRef.current : null;
    if (!target) return;
    moved.current = true;
    target.focus();
  }, [offered, shown, empty]);

  if (!offered) {
    return <p className="text-sm text-slate-700">Looking for the next item in the inbox…</p>;
  }
  if (shown) {
    return (
      <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm">
        <InboxItemLink item={shown} place={place} ref={linkRef} aria-describedby={outcomeId}>
          Next item: {describeItem(shown)}
        </InboxItemLink>
      </p>
    );
  }
  if (empty) {
    return (
      <p
        ref={emptyRef}
        tabIndex={-1}
        aria-describedby={outcomeId}
        className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-900 focus:outline-2 focus:outline-blue-700"
      >
        The approvals inbox is empty: nothing else waits for your decision.
      </p>
    );
  }
  return (
    <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-900">
      Nothing else on this page of the inbox waits for your decision
      {offered.waiting
        ? `; ${offered.waiting === 1 ? '1 item waits' : `${offered.waiting} items wait`} on other pages`
        : ''}
      .{' '}
      <Link to="/approvals" className={linkClass}>
        Open the inbox
      </Link>
    </p>
  );
}
