import { hydrate } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { ConsoleApp } from './app.tsx';
import { keepTabOnChunkFailure } from './lib/chunk-errors.ts';
import { readServerState } from './lib/server-state.ts';
import { adoptSession, sessionQueries } from './lib/session-queries.ts';
import { RenderedAtProvider } from './lib/use-now.ts';
import { createConsole } from './router.tsx';
import './styles.css';

keepTabOnChunkFailure();
const { queryClient, router } = createConsole();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const serverState = readServerState(document);

if (serverState && rootElement.firstChild) {
  // The server rendered this page (ARCHITECTURE.md, "Server-rendered first
  // screen"): start from the answers it rendered with, resolve the same route
  // without asking again, then take over its markup instead of redrawing it.
  hydrate(queryClient, serverState.queries);
  const session = queryClient.getQueryData(sessionQueries.current().queryKey);
  if (session) adoptSession(session);
  // Renders the route tree as the server did (no suspense boundary at the root).
  router.ssr = { manifest: undefined };
  // load() keeps a route's failure in its match (shown by its error
  // component), so the page is taken over whatever the outcome.
  void router.load().finally(() => {
    // Counting times render from the server's instant until hydrated (lib/use-now.ts).
    hydrateRoot(
      rootElement,
      <RenderedAtProvider at={serverState.renderedAt}>
        <ConsoleApp queryClient={queryClient} router={router} />
      </RenderedAtProvider>,
    );
  });
} else {
  createRoot(rootElement).render(<ConsoleApp queryClient={queryClient} router={router} />);
}
