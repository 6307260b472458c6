import { AsyncLocalStorage } from 'node:async_hooks';
import { dehydrate, type QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { ConsoleApp } from './app.tsx';
import type { FetchLike } from './lib/api-client.ts';
import type { PagePlan, RenderRequest } from '#contract/page-render.ts';
import { createQueryClient } from './lib/query-client.ts';
import { parsesAsGiven } from './lib/answer-as-given.ts';
import { setRenderScopeLookup } from './lib/render-scope.ts';
import { serverStateScript } from './lib/server-state.ts';
import { RenderedAtProvider } from './lib/use-now.ts';
import { createAppRouter } from './router.tsx';

/**
 * The server's render of a console page (ARCHITECTURE.md, "Server-rendered
 * first screen"). Built by `vite build --ssr` into dist/ssr and loaded by the
 * console server (src/server/http/server-render.ts), which hands it the page's
 * address and a fetch that answers in process as the visitor: every read is
 * an ordinary API request, checked for session, permission and scope.
 *
 * The page is rendered with the very routes, loaders and components the
 * browser runs; the browser then starts from the same query cache and
 * hydrates the markup (main.tsx).
 */

/**
 * Every signed-in page the server renders, each with the id of the element
 * that closes its first screen: a list's results (`<id>-results`,
 * components/cursor-list.tsx), otherwise the page's own outermost element
 * (`<name>-page`). The browser does not paint before it has parsed that
 * element (`<link rel="expect" blocking="render">`, http/server-render.ts).
 * A route not listed here is left to the browser (`/login`).
 */
const SERVER_RENDERED_ROUTES: ReadonlyMap<string, string> = new Map([
  ['/_authenticated/', 'overview-page'],
  ['/_authenticated/vaults', 'vaults-page'],
  ['/_authenticated/vaults_/$vaultId', 'vault-page'],
  ['/_authenticated/transactions', 'transactions-results'],
  ['/_authenticated/transactions_/$transactionId', 'transaction-page'],
  ['/_authenticated/transactions_/new', 'new-transaction-page'],
  ['/_authenticated/approvals', 'approvals-results'],
  ['/_authenticated/bank-accounts', 'bank-accounts-results'],
  ['/_authenticated/bank-accounts_/$bankAccountId', 'bank-account-page'],
  ['/_authenticated/bank-accounts_/new', 'propose-bank-account-page'],
  ['/_authenticated/convert', 'convert-page'],
  ['/_authenticated/contacts', 'contacts-results'],
  ['/_authenticated/contacts_/$contactId', 'contact-page'],
  ['/_authenticated/contacts_/new', 'propose-contact-page'],
  ['/_authenticated/audit', 'audit-results'],
  ['/_authenticated/staff', 'staff-page'],
  ['/_authenticated/account', 'account-page'],
  ['/_authenticated/policies', 'policies-page'],
  ['/_authenticated/settings/webhooks', 'webhooks-page'],
  ['/_authenticated/settings/sso', 'sso-page'],
  ['/_authenticated/settings/api-keys', 'api-keys-page'],
  // The ledger's tables come with the page; its charts are drawn by the browser after.
  ['/_authenticated/ledger', 'ledger-page'],
  ['/_authenticated/ledger_/statement', 'ledger-statement-page'],
  ['/_authenticated/ledger_/periods', 'ledger-periods-page'],
  ['/_authenticated/ledger_/accounts', 'ledger-accounts-page'],
]);

const requestScope = new AsyncLocalStorage<{ fetch: FetchLike; answersBuiltHere: boolean }>();
// The render's reads are this server's own answers (the sandbox's), built as their schemas'
// output: checking them again in process changed nothing and was half of what the reads cost.
// An upstream's answers passed through are checked as the browser checks them.
setRenderScopeLookup(
  () => requestScope.getStore()?.fetch,
  (schema) => requestScope.getStore()?.answersBuiltHere === true && parsesAsGiven(schema),
);

/** Every query the loaders started, settled (reference data is started, not awaited). */
async function settled(queryClient: QueryClient): Promise<void> {
  const pending = queryClient
    .getQueryCache()
    .getAll()
    .map((query) => query.promise)
    .filter((promise) => promise !== undefined);
  await Promise.allSettled(pending);
}

/**
 * The plan for the page at `href`, or `undefined` for a route not listed
 * above: another page is left to the browser before any of its reads is made.
 * Its `render` gives `undefined` for a redirect (signed out, a URL the router
 * writes otherwise) or any read that failed — the browser shows those states
 * as it always has, rather than a server's version of an error.
 */
export function planPage({
  href,
  fetch,
  answersBuiltHere = false,
}: RenderRequest): PagePlan | undefined {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [href] }), {
    isServer: true,
  });
  const planned = router.matchRoutes(router.latestLocation);
  const firstScreenId = planned
    .map((match) => SERVER_RENDERED_ROUTES.get(match.routeId))
    .find((id) => id !== undefined);
  if (firstScreenId === undefined) return undefined;
  return {
    firstScreenId,
    render: () =>
      requestScope.run({ fetch, answersBuiltHere }, async () => {
        await router.load();
        // A redirect (no session, a URL the router writes otherwise) resolves no location.
        const { matches, resolvedLocation } = router.state;
        if (resolvedLocation === undefined) return undefined;
        if (matches.some((match) => match.status !== 'success')) return undefined;
        await settled(queryClient);
        if (
          queryClient
            .getQueryCache()
            .getAll()
            .some((query) => query.state.status !== 'success')
        )
          return undefined;
        // Counting components (lib/use-now.ts) render from this instant, and so does hydration.
        const renderedAt = Date.now();
        const html = renderToString(
          <RenderedAtProvider at={renderedAt}>
            <ConsoleApp queryClient={queryClient} router={router} />
          </RenderedAtProvider>,
        );
        const stateScript = serverStateScript({ queries: dehydrate(queryClient), renderedAt });
        queryClient.clear();
        return { html, stateScript };
      }),
  };
}
