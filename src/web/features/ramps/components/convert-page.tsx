import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ErrorState } from '../../../components/query-state.tsx';
import { cn } from '../../../lib/cn.ts';
import { useCan } from '../../../lib/permissions.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { rampQueries } from '../api/ramp-queries.ts';
import { CONVERT_KINDS, KIND_LABELS, type ConvertKind } from '../kinds.ts';
import { ConvertForm } from './convert-form.tsx';
import { SwapForm } from './swap-form.tsx';

/**
 * `/convert`: off-ramp, on-ramp and FX, one form at a time, chosen by
 * `?kind=`. Members who may not create transactions are told why, on the
 * page itself (the navigation offers it only to those who may).
 */
export function ConvertPage({ kind, subOrg }: { kind: ConvertKind; subOrg: string | undefined }) {
  const allowed = useCan('convert');
  const role = useSession()?.member.role;
  const vaults = useQuery(referenceQueries.vaults());
  const assets = useQuery(referenceQueries.assets());
  const accounts = useQuery(rampQueries.payoutAccounts(subOrg));

  let content;
  if (!allowed)
    content = (
      <p
        data-testid="convert-blocked"
        className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-800"
      >
        Converting creates transactions, which needs the initiator or admin role; you are signed in
        as {role ?? 'a member without it'}. You can still follow conversions on their transaction
        pages. Ask an administrator if you need to convert.
      </p>
    );
  else if (vaults.error ?? assets.error ?? accounts.error)
    content = (
      <ErrorState
        title="The vaults, assets and bank accounts could not be loaded"
        error={vaults.error ?? assets.error ?? accounts.error}
      />
    );
  else if (!vaults.data || !assets.data || !accounts.data)
    content = (
      <p role="status" className="text-sm text-slate-700">
        Loading vaults, assets and bank accounts…
      </p>
    );
  else if (kind === 'SWAP')
    content = (
      <SwapForm
        // A new scope is a new form, with its own external ID.
        key={`${kind}-${subOrg ?? ''}`}
        vaults={vaults.data.results.filter((v) => v.id && (!subOrg || v.subOrgId === subOrg))}
        assets={assets.data}
      />
    );
  else
    content = (
      <ConvertForm
        // A new kind or scope is a new form, with its own external ID.
        key={`${kind}-${subOrg ?? ''}`}
        kind={kind}
        pickers={{
          vaults: vaults.data.results.filter((v) => v.id && (!subOrg || v.subOrgId === subOrg)),
          assets: assets.data,
          accounts: accounts.data.results,
        }}
      />
    );

  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section id="convert-page" aria-labelledby="convert-title" className="flex flex-col gap-4">
      <title>{`Convert: ${KIND_LABELS[kind]} · Custody Console`}</title>
      <h1 id="convert-title" className="text-2xl font-semibold text-slate-900">
        Convert
      </h1>
      <p className="max-w-3xl text-sm text-slate-700">
        Turn a vault's stablecoins into money in an approved bank account, buy stablecoins with
        money from your bank, change money between currencies, or swap one asset a vault holds into
        another. Quotes from several providers are shown side by side; each conversion waits for an
        approver like any transaction.
      </p>
      {allowed ? (
        <nav aria-label="Kind of conversion">
          <ul className="flex flex-wrap gap-2">
            {CONVERT_KINDS.map((k) => (
              <li key={k}>
                <Link
                  from="/convert"
                  to="/convert"
                  search={(prev) => ({ ...prev, kind: k })}
                  aria-current={k === kind ? 'page' : undefined}
                  className={cn(
                    'inline-flex h-10 items-center rounded-md border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                    k === kind
                      ? 'border-blue-700 bg-blue-700 text-white'
                      : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
                  )}
                >
                  {KIND_LABELS[k]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {content}
    </section>
  );
}
