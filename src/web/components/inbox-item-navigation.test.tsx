import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import type { InboxPlace } from '../lib/approval-inbox-items.ts';
import { ScopeSearch } from '../lib/scope.ts';
import { sessionQueries } from '../lib/session-queries.ts';
import { installFakeApi, json } from '../test/fake-api.ts';
import { createTestQueryClient } from '../test/render.tsx';
import { sessionFor } from '../test/session.ts';
import { InboxItemNavigation } from './inbox-item-navigation.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const CURRENT = {
  kind: 'TRANSACTION' as const,
  id: 'tx_now',
  createdAt: '2030-01-02T00:00:00.000Z',
};

function waiting(id: string, createdAt: string, yours = false): ApprovalItem {
  return {
    kind: 'TRANSACTION',
    id,
    createdAt,
    subOrgId: null,
    createdById: 'staff_ivan',
    yours,
    initiator: null,
    vault: null,
    transaction: { id, category: 'TRANSFER', amount: '1', asset: 'ETH', blockChain: 'ETHEREUM' },
  } as ApprovalItem;
}

/**
 * The item page's part as it stands under the signed-in layout, opened from
 * the inbox (`place` in the history entry) or not, with the inbox answering
 * `results` and decided once `decide` is pressed.
 */
async function renderAround(options: {
  place?: InboxPlace;
  results: ApprovalItem[];
  actionableCount: number;
}) {
  installFakeApi({
    '/api/console/approvals/': () =>
      json({
        results: options.results,
        hasNext: false,
        nextCursor: null,
        actionableCount: options.actionableCount,
        totalCount: options.results.length,
        youApprovedCount: 0,
      }),
  });
  const client = createTestQueryClient();
  client.setQueryData(sessionQueries.current().queryKey, sessionFor('approver'));
  function ItemPage() {
    const [decided, setDecided] = useState(false);
    return (
      <>
        {decided ? (
          <p id="outcome" role="status">
            Approved.
          </p>
        ) : null}
        <InboxItemNavigation current={CURRENT} decided={decided} outcomeId="outcome" />
        <button type="button" onClick={() => setDecided(true)}>
          decide
        </button>
      </>
    );
  }
  const root = createRootRoute();
  const layout = createRoute({
    getParentRoute: () => root,
    id: '_authenticated',
    validateSearch: ScopeSearch,
  });
  const page = createRoute({ getParentRoute: () => layout, path: '/', component: ItemPage });
  const router = createRouter({
    routeTree: root.addChildren([layout.addChildren([page])]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  if (options.place) await router.navigate({ to: '/', state: { approvalInbox: options.place } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  await screen.findByRole('button', { name: 'decide' });
  return router;
}

const fromInbox: InboxPlace = { cursor: null, page: null };

describe('InboxItemNavigation', () => {
  it('shows nothing on a page not opened from the inbox', async () => {
    await renderAround({
      results: [waiting('tx_next', '2030-01-01T00:00:00.000Z')],
      actionableCount: 1,
    });
    expect(screen.queryByRole('navigation', { name: 'Approvals inbox' })).not.toBeInTheDocument();
  });

  it('after a decision offers the next item to decide, with focus, read with the outcome', async () => {
    await renderAround({
      place: fromInbox,
      results: [
        waiting('tx_newer', '2030-01-03T00:00:00.000Z'),
        waiting('tx_mine', '2030-01-01T12:00:00.000Z', true),
        waiting('tx_next', '2030-01-01T00:00:00.000Z'),
      ],
      actionableCount: 2,
    });
    const nav = await screen.findByRole('navigation', { name: 'Approvals inbox' });
    expect(await screen.findByRole('link', { name: /^Next item: Transfer/ })).toHaveAttribute(
      'href',
      '/transactions/tx_mine',
    );
    expect(nav).toHaveTextContent('Previous item');
    await act(() => screen.getByRole('button', { name: 'decide' }).click());
    const offered = await screen.findByRole('link', { name: /^Next item: Transfer of 1 ETH/ });
    // Past the member's own, which another member must decide.
    expect(offered).toHaveAttribute('href', '/transactions/tx_next');
    expect(offered).toHaveFocus();
    expect(offered).toHaveAccessibleDescription('Approved.');
  });

  it('says the inbox is empty when nothing is left to decide', async () => {
    await renderAround({ place: fromInbox, results: [], actionableCount: 0 });
    await screen.findByRole('navigation', { name: 'Approvals inbox' });
    await act(() => screen.getByRole('button', { name: 'decide' }).click());
    const empty = await screen.findByText(
      'The approvals inbox is empty: nothing else waits for your decision.',
    );
    expect(empty).toHaveFocus();
    expect(empty).toHaveAccessibleDescription('Approved.');
  });
});
