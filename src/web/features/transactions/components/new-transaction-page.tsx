import { Link } from '@tanstack/react-router';
import { chainInfo } from '#contract/chains.ts';
import { NoAccess } from '../../../components/no-access.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { cn } from '../../../lib/cn.ts';
import { useCan } from '../../../lib/permissions.ts';
import type { CreatableCategory } from '../new-transaction-search.ts';
import { ContractCallForm } from './forms/contract-call-form.tsx';
import { DelegateResourceForm } from './forms/delegate-resource-form.tsx';
import { usePickerData, type PickerData } from './forms/picker-data.ts';
import { StakeForm } from './forms/stake-form.tsx';
import { TransferForm } from './forms/transfer-form.tsx';

const CATEGORY_LABELS: Record<CreatableCategory, string> = {
  TRANSFER: 'Transfer',
  CONTRACT_CALL: 'Contract call',
  STAKE: 'Stake',
  DELEGATE_RESOURCE: 'Delegate resource',
};

/** A kind is offered when one of the member's vaults has a wallet on a chain that does it. */
function offered(data: PickerData, category: CreatableCategory): boolean {
  const chains = data.vaults.flatMap((v) => (v.wallets ?? []).map((w) => chainInfo(w.blockchain)));
  if (category === 'STAKE') return chains.some((c) => c?.stake);
  if (category === 'DELEGATE_RESOURCE') return chains.some((c) => c?.tronResources);
  if (category === 'CONTRACT_CALL') return chains.some((c) => c?.contractCall);
  return true;
}

/** `/transactions/new`: the four create forms, one at a time, chosen by `?category=`. */
export function NewTransactionPage({
  category,
  subOrg,
}: {
  category: CreatableCategory;
  subOrg: string | undefined;
}) {
  const allowed = useCan('create-transaction');
  const data = usePickerData(subOrg);
  if (!allowed) return <NoAccess title="new transactions" />;

  const categories = (Object.keys(CATEGORY_LABELS) as CreatableCategory[]).filter(
    (c) => data.loading || offered(data, c),
  );
  let content;
  if (data.error)
    content = (
      <ErrorState title="The vaults, assets and contacts could not be loaded" error={data.error} />
    );
  else if (data.loading)
    content = (
      <p role="status" className="text-sm text-slate-700">
        Loading vaults, assets and contacts…
      </p>
    );
  else if (!offered(data, category))
    content = (
      <p
        role="alert"
        className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
      >
        {CATEGORY_LABELS[category]} is not offered on any chain your vaults in this scope hold.
      </p>
    );
  else if (category === 'CONTRACT_CALL')
    content = <ContractCallForm key={`${category}-${subOrg}`} data={data} />;
  else if (category === 'STAKE') content = <StakeForm key={`${category}-${subOrg}`} data={data} />;
  else if (category === 'DELEGATE_RESOURCE')
    content = <DelegateResourceForm key={`${category}-${subOrg}`} data={data} />;
  else content = <TransferForm key={`${category}-${subOrg}`} data={data} />;

  return (
    <PageSection
      name="new-transaction"
      heading="New transaction"
      documentTitle={`New ${CATEGORY_LABELS[category].toLowerCase()}`}
      className="gap-4"
    >
      <nav aria-label="Kind of transaction">
        <ul className="flex flex-wrap gap-2">
          {categories.map((c) => (
            <li key={c}>
              <Link
                from="/transactions/new"
                to="/transactions/new"
                search={(prev) => ({ ...prev, category: c })}
                aria-current={c === category ? 'page' : undefined}
                className={cn(
                  'inline-flex h-10 items-center rounded-md border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700',
                  c === category
                    ? 'border-blue-700 bg-blue-700 text-white'
                    : 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
                )}
              >
                {CATEGORY_LABELS[c]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {content}
    </PageSection>
  );
}
