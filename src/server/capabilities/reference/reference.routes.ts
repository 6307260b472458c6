import { Hono } from 'hono';
import * as reference from '#contract/endpoints/reference.ts';
import { createSubOrg } from '#contract/endpoints/sub-org-writes.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';

const pageBesideCursor = () => {
  const message = 'page and cursor each choose a page: send one of them';
  return new ApiError(400, ERROR_CODES.invalidFilter, message, [{ field: 'page', message }]);
};

/**
 * The addresses of the pages either side of a numbered one, as the older
 * SDKs' answer carries them: the request's own address with its page moved
 * by one, every other parameter as sent; null past either end.
 */
function pagesAround(url: string, page: number, answer: { hasNext: boolean }) {
  const at = (n: number) => {
    const moved = new URL(url);
    moved.searchParams.set('page', String(n));
    return moved.toString();
  };
  return { next: answer.hasNext ? at(page + 1) : null, previous: page > 1 ? at(page - 1) : null };
}

/** Supporting reads: vaults, vault balances, assets, supported chains, sub-organizations. */
export function referenceRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, reference.listVaults, async ({ query }, c) => {
    if (query.page !== undefined && query.cursor) throw pageBesideCursor();
    const page = await backend.listVaults(custodyContext(c), query);
    return query.page === undefined
      ? page
      : { ...page, ...pagesAround(c.req.url, query.page, page) };
  });
  mountCustody(app, reference.getVault, ({ params }, c) =>
    backend.getVault(custodyContext(c), params.vaultId),
  );
  mountCustody(app, reference.getVaultBalances, ({ params }, c) =>
    backend.getVaultBalances(custodyContext(c), params.vaultId),
  );
  mountCustody(app, reference.listAssets, (_input, c) => backend.listAssets(custodyContext(c)));
  mountCustody(app, reference.listSupportedChains, (_input, c) =>
    backend.listSupportedChains(custodyContext(c)),
  );
  mountCustody(app, reference.listSubOrgs, ({ query }, c) =>
    backend.listSubOrgs(custodyContext(c), query),
  );
  mountCustody(app, createSubOrg, ({ body }, c) => backend.createSubOrg(custodyContext(c), body), {
    audit: { summary: (answer) => `Sub-organization "${answer.name ?? ''}" created` },
  });
  return app;
}
