import {
  Outlet,
  createFileRoute,
  redirect,
  retainSearchParams,
  useNavigate,
} from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isApprovalEvent, isPaymentRunEvent, type LiveEvent } from '#contract/live-events.ts';
import {
  approvalInboxCountQuery,
  invalidateApprovalInbox,
  useApprovalInboxCount,
} from '../lib/approval-inbox-count.ts';
import {
  mayAddItems,
  notificationSupport,
  notificationsWanted,
  shouldNotify,
  showApprovalNotification,
} from '../lib/approval-notifications.ts';
import { connectLiveUpdates } from '../lib/live-updates.ts';
import {
  invalidateAllTransactions,
  invalidateTransactionChanges,
} from '../features/transactions/api/live-changes.ts';
import { can } from '../lib/permissions.ts';
import { loadSession, sessionQueries, useSession } from '../lib/session-queries.ts';
import { ShortcutsProvider } from '../components/shortcuts.tsx';
import { AuthenticatedShell } from '../features/session/components/authenticated-shell.tsx';
import { ApiError } from '../lib/api-errors.ts';
import { DisplayProvider } from '../lib/display.tsx';
import { referenceQueries } from '../lib/reference-queries.ts';
import { ScopeSearch } from '../lib/scope.ts';

/**
 * Every signed-in page sits under this pathless layout. Signed-out visitors
 * go to /login with the address they asked for; the scope (`?subOrg=`)
 * follows the member from page to page.
 */
export const Route = createFileRoute('/_authenticated')({
  // The shell of every signed-in page is in the entry chunk, not split out
  // (ARCHITECTURE.md, "First load").
  codeSplitGroupings: [],
  validateSearch: ScopeSearch,
  search: { middlewares: [retainSearchParams(['subOrg'])] },
  // The session is started here and awaited in the loader, not in
  // beforeLoad: the router runs every loader only after every beforeLoad, so
  // awaiting it here would hold the page's own data until the session
  // answered. Now the session, the scope list and the page's data start
  // together (ARCHITECTURE.md, "First load"); the server refuses the data
  // without a session whatever the order.
  beforeLoad: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(sessionQueries.current());
  },
  loader: async ({ context: { queryClient }, location }) => {
    void queryClient.prefetchQuery(referenceQueries.subOrgs());
    try {
      await loadSession(queryClient);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        throw redirect({ to: '/login', search: { redirect: location.href } });
      }
      throw error;
    }
  },
  component: AuthenticatedLayout,
});

/** Statuses that put an item into the approvals inbox or take it out. */
const INBOX_STATUSES = new Set(['PENDING', 'APPROVED', 'DECLINED', 'FAILED']);

/** Whether changes enter or leave the approvals inbox, or move an item's approvals. */
const touchesInbox = (events: readonly LiveEvent[]) =>
  events.some(
    (e) => isApprovalEvent(e) || (e.kind === 'transaction.status' && INBOX_STATUSES.has(e.status)),
  );

/**
 * The tab's event stream (lib/live-updates.ts), opened once signed in and
 * closed on the way out: each change refreshes the transaction's page, the
 * lists, a bank account's or contact's page and lists, and the approvals
 * inbox, its badge and the items' approval progress when an item entered or
 * left it or its approvals moved. When the badge's count of items this member
 * may decide grew while the tab was hidden, an optional desktop notification
 * says so (lib/approval-notifications.ts).
 */
function useLiveUpdates(scope: { subOrg: string | undefined; decides: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const current = useRef(scope);
  useEffect(() => {
    current.current = scope;
  });
  useEffect(() => {
    async function refreshInbox(events: LiveEvent[]) {
      const { subOrg, decides } = current.current;
      const { queryKey } = approvalInboxCountQuery(subOrg);
      const before = queryClient.getQueryData(queryKey)?.actionableCount;
      await invalidateApprovalInbox(queryClient);
      if (!decides || !mayAddItems(events)) return;
      const after = queryClient.getQueryData(queryKey)?.actionableCount;
      const notify = shouldNotify({
        before,
        after,
        hidden: document.visibilityState === 'hidden',
        wanted: notificationsWanted(),
        support: notificationSupport(),
      });
      if (notify && after !== undefined)
        showApprovalNotification(after, () => void navigate({ to: '/approvals' }));
    }
    return connectLiveUpdates(queryClient, {
      onChanges(events) {
        invalidateTransactionChanges(queryClient, events);
        const approvals = events.filter(isApprovalEvent);
        // Loaded with their pages, not in the entry chunk: the layout only hands them the events.
        if (approvals.some((e) => e.entityType === 'BANK_ACCOUNT'))
          void import('../features/bank-accounts/api/live-changes.ts').then((m) =>
            m.invalidateBankAccountChanges(queryClient, approvals),
          );
        if (approvals.some((e) => e.entityType === 'CONTACT' && e.kind !== 'approval.vote'))
          void import('../features/contacts/api/invalidate-contacts.ts').then((m) =>
            m.invalidateContacts(queryClient),
          );
        if (events.some(isPaymentRunEvent) || approvals.some((e) => e.entityType === 'PAYMENT_RUN'))
          void import('../features/payment-runs/api/live-changes.ts').then((m) =>
            m.invalidatePaymentRunChanges(queryClient, events),
          );
        if (touchesInbox(events)) void refreshInbox(events);
      },
      onResync() {
        invalidateAllTransactions(queryClient);
        void invalidateApprovalInbox(queryClient);
        void import('../features/bank-accounts/api/live-changes.ts').then((m) =>
          m.invalidateAllBankAccounts(queryClient),
        );
        void import('../features/contacts/api/invalidate-contacts.ts').then((m) =>
          m.invalidateContacts(queryClient),
        );
        void import('../features/payment-runs/api/live-changes.ts').then((m) =>
          m.invalidateAllPaymentRuns(queryClient),
        );
      },
    });
  }, [queryClient, navigate]);
}

function AuthenticatedLayout() {
  const { subOrg } = Route.useSearch();
  // Not Route.useNavigate(): '.' must mean the page being shown, not this layout.
  const navigate = useNavigate();
  // The inbox is the deciding roles' work list; others are never shown it or asked for its count.
  const session = useSession();
  const decides = can(session, 'approve');
  useLiveUpdates({ subOrg, decides });
  const approvalsCount = useApprovalInboxCount(subOrg, decides);
  return (
    // The member's zone and scheme for every page, the server's render included.
    <DisplayProvider settings={session?.display}>
      <ShortcutsProvider>
        <AuthenticatedShell
          subOrg={subOrg}
          approvals={decides ? { count: approvalsCount } : undefined}
          onScopeChange={(next) =>
            void navigate({
              to: '.',
              // Another scope is another list: paging starts again.
              search: (prev) => ({ ...prev, subOrg: next, cursor: undefined, page: undefined }),
            })
          }
        >
          <Outlet />
        </AuthenticatedShell>
      </ShortcutsProvider>
    </DisplayProvider>
  );
}
