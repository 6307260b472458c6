import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type Ref } from 'react';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import {
  CursorListPage,
  type CursorListSpec,
  type ListPageProps,
} from '../../../components/cursor-list.tsx';
import { usePageShortcut } from '../../../components/shortcuts.tsx';
import { approvalInboxQueries } from '../../../lib/approval-inbox-queries.ts';
import { describeItem, type InboxPlace } from '../../../lib/approval-inbox-items.ts';
import { Button } from '../../../components/ui/button.tsx';
import { pageNumber } from '../../../lib/paging.ts';
import { useNow } from '../../../lib/use-now.ts';
import { batchNoun, bulkApprovable } from '../bulk.ts';
import { approvalInboxSearch, type ApprovalInboxSearch } from '../search.ts';
import { ApprovalNotificationsToggle } from './approval-notifications-toggle.tsx';
import { ApprovalRow, approvalsTable, checkboxClass } from './approvals-table.tsx';
import type { BatchResult } from './bulk-approve-dialog.tsx';
import { OnDemandDialog, onDemand } from '../../../components/on-demand.tsx';
import { Choice } from '../../../components/ui/input.tsx';

// With the dialog library, the approval cards and the passkey library: none of it for a member
// who only reads the inbox.
const bulkApproveDialog = onDemand(() => import('./bulk-approve-dialog.tsx'));

const NOUNS = {
  list: 'the approvals inbox',
  title: 'Approvals',
  one: 'item waiting for a decision',
  many: 'items waiting for a decision',
};

/** Moves focus to the next (+1) or previous (-1) item's link in the inbox. */
function moveItem(step: 1 | -1) {
  const links = [...document.querySelectorAll<HTMLElement>('[data-approval-id] a[href]')].filter(
    (link, i, all) => all.findIndex((l) => l.closest('tr') === link.closest('tr')) === i,
  );
  if (links.length === 0) return;
  const current = links.findIndex((link) => link.closest('tr')?.contains(document.activeElement));
  const next = current === -1 ? (step === 1 ? 0 : links.length - 1) : current + step;
  links[Math.max(0, Math.min(links.length - 1, next))]?.focus();
}

/**
 * `/approvals`: every transaction and bank account waiting for a decision,
 * newest first, in the member's scope, each with who proposed it, the vault
 * it spends from, its value in USD and how long it has waited. Each item
 * opens its own page, where the decision is made with what is being
 * approved in full view, and that page leads on to the next item. Several
 * transactions can be approved together, through a confirmation that lists
 * each in full (bulk-approve-dialog.tsx). Items the member created are
 * listed but marked, as another member must decide them.
 */
export function ApprovalsPage({
  onApproved,
  ...props
}: ListPageProps<ApprovalInboxSearch> & {
  /** After a bulk approval: what else the decisions made stale (the transactions' reads). */
  onApproved?: () => Promise<unknown>;
}) {
  const query = useQuery(approvalInboxQueries.list(approvalInboxSearch.toListParams(props.search)));
  const counts = query.data;
  // Now, again every minute: how long each item has waited (the server's instant until hydrated).
  const now = useNow(60_000);
  const place: InboxPlace = {
    cursor: props.search.cursor ?? null,
    page: props.search.cursor ? pageNumber(props.search) : null,
  };
  usePageShortcut('j', 'Next item in the inbox', () => moveItem(1));
  usePageShortcut('k', 'Previous item in the inbox', () => moveItem(-1));

  // Selection holds ids; what is shown decides what is selected, so an item that left
  // the inbox (decided elsewhere) or the page is never approved unseen.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // Another page or scope is another list: nothing chosen on one is carried to the next.
  const listKey = `${props.search.subOrg ?? ''}|${props.search.cursor ?? ''}`;
  const [chosenOn, setChosenOn] = useState(listKey);
  if (chosenOn !== listKey) {
    setChosenOn(listKey);
    setChosen(new Set());
  }
  const items = query.data?.results ?? [];
  const selectable = items.filter(bulkApprovable);
  const selected = selectable.filter((item) => chosen.has(item.id));
  const allSelected = selectable.length > 0 && selected.length === selectable.length;
  const toggle = (id: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const [result, setResult] = useState<BatchResult | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const justFinished = useRef(false);

  const selectAllRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAllRef.current)
      selectAllRef.current.indeterminate = selected.length > 0 && !allSelected;
  });
  const selectAll = (
    <>
      <span className="sr-only">Select</span>
      <Choice
        ref={selectAllRef}
        type="checkbox"
        className={checkboxClass}
        checked={allSelected}
        disabled={selectable.length === 0}
        aria-label="Select every transaction on this page you may approve together"
        onChange={(event) =>
          setChosen(event.target.checked ? new Set(selectable.map((item) => item.id)) : new Set())
        }
      />
    </>
  );
  const spec: CursorListSpec<ApprovalItem, ApprovalInboxSearch, object> = {
    id: 'approvals',
    nouns: NOUNS,
    search: approvalInboxSearch,
    table: approvalsTable(selectAll),
  };

  return (
    <CursorListPage
      spec={spec}
      query={query}
      {...props}
      intro={
        <>
          {counts ? (
            <p className="text-sm text-slate-700">
              {counts.actionableCount === 1
                ? '1 item waits for your decision'
                : `${counts.actionableCount} items wait for your decision`}
              {othersText(counts)}
            </p>
          ) : null}
          <ApprovalNotificationsToggle />
          {/* Kept while a batch is open, even once its approved items have left the page. */}
          {items.length > 0 || result || batchOpen ? (
            <div
              role="group"
              aria-label="Approve several transactions"
              className="flex flex-wrap items-center gap-3 rounded-md border border-slate-300 bg-white p-2 text-sm"
            >
              <span className="text-slate-800">
                {selected.length === 0
                  ? 'Select transactions to approve several at once.'
                  : `${selected.length} selected`}
              </span>
              <OnDemandDialog
                part={bulkApproveDialog}
                open={batchOpen}
                onOpenChange={setBatchOpen}
                trigger={
                  <Button variant="primary" size="sm" disabled={selected.length === 0}>
                    Approve selected…
                  </Button>
                }
                what="the approval of the selected items"
              >
                {(m, returnFocus) => (
                  <m.BulkApproveDialog
                    selected={selected}
                    onApproved={onApproved}
                    onOpenChange={setBatchOpen}
                    onFinished={(done) => {
                      justFinished.current = true;
                      setResult(done);
                      // Approved ones have left the inbox; refused ones stay selected to look at.
                      setChosen((old) => {
                        const next = new Set(old);
                        for (const [id, outcome] of done.outcomes)
                          if (outcome.state === 'approved') next.delete(id);
                        return next;
                      });
                    }}
                    onCloseAutoFocus={(event) => {
                      // Closed after the batch: to what happened, not to a button that may be gone.
                      if (!justFinished.current || !resultRef.current) return returnFocus(event);
                      justFinished.current = false;
                      event.preventDefault();
                      resultRef.current.focus();
                    }}
                  />
                )}
              </OnDemandDialog>
              {selected.length > 0 ? (
                <Button size="sm" variant="ghost" onClick={() => setChosen(new Set())}>
                  Clear selection
                </Button>
              ) : null}
            </div>
          ) : null}
          {result ? <BatchSummary result={result} ref={resultRef} /> : null}
        </>
      }
    >
      {(item) => (
        <ApprovalRow
          item={item}
          place={place}
          now={now}
          selection={{ selected: chosen.has(item.id), onChange: (on) => toggle(item.id, on) }}
        />
      )}
    </CursorListPage>
  );
}

/** What the last bulk approval did, kept in view after its dialog closes. */
function BatchSummary({ result, ref }: { result: BatchResult; ref: Ref<HTMLDivElement> }) {
  const refused = result.items.filter((item) => result.outcomes.get(item.id)?.state === 'refused');
  const approved = result.items.length - refused.length;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      className="rounded-md border border-slate-300 bg-white p-3 text-sm focus:outline-2 focus:outline-blue-700"
    >
      <p className="font-medium text-slate-900">
        {`Approved ${approved} of ${result.items.length} ${batchNoun(result.items)}.`}
        {refused.length ? ` ${refused.length} not approved:` : ''}
      </p>
      {refused.length ? (
        <ul className="mt-1 list-disc pl-5 text-red-900">
          {refused.map((item) => {
            const outcome = result.outcomes.get(item.id);
            return (
              <li key={item.id}>
                {describeItem(item)}: {outcome?.state === 'refused' ? outcome.reason : ''}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * What waits on another member: the ones the member approved (held for more
 * approvals) and the ones they proposed, counted apart so neither is called
 * the other. "; 1 you approved and 2 of yours wait for another member."
 */
function othersText(counts: {
  actionableCount: number;
  totalCount: number;
  youApprovedCount?: number | undefined;
}): string {
  const approved = counts.youApprovedCount ?? 0;
  const yours = counts.totalCount - counts.actionableCount - approved;
  const parts = [
    ...(approved > 0 ? [`${approved} you approved`] : []),
    ...(yours > 0 ? [`${yours} of yours`] : []),
  ];
  return parts.length > 0 ? `; ${parts.join(' and ')} wait for another member.` : '.';
}
