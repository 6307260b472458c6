import {
  Outlet,
  createFileRoute,
  redirect,
  retainSearchParams,
  useNavigate,
} from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { invalidateApprovalInbox, useApprovalInboxCount } from '../lib/approval-inbox-queries.ts';
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

/**
 * The tab's event stream (lib/live-updates.ts), opened once signed in and
 * closed on the way out: each change refreshes the transaction's page, the
 * lists, and the approvals inbox and badge when an item entered or left it.
 */
function useLiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      connectLiveUpdates(queryClient, {
        onChanges(events) {
          invalidateTransactionChanges(queryClient, events);
          if (events.some((e) => e.kind === 'transaction.status' && INBOX_STATUSES.has(e.status)))
            void invalidateApprovalInbox(queryClient);
        },
        onResync() {
          invalidateAllTransactions(queryClient);
          void invalidateApprovalInbox(queryClient);
        },
      }),
    [queryClient],
  );
}

function AuthenticatedLayout() {
  useLiveUpdates();
  const { subOrg } = Route.useSearch();
  // Not Route.useNavigate(): '.' must mean the page being shown, not this layout.
  const navigate = useNavigate();
  // The inbox is the deciding roles' work list; others are never shown it or asked for its count.
  const session = useSession();
  const decides = can(session, 'approve');
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
