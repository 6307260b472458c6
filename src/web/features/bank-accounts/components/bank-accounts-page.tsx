import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonVariants } from '../../../components/ui/button.tsx';
import type { BankAccountListResponse } from '../../../../contract/bank-account.ts';
import { CursorListPage } from '../../../components/cursor-list.tsx';
import { bankAccountQueries } from '../api/bank-account-queries.ts';
import { toBankAccountRow } from '../bank-account-row.ts';
import { bankAccountSearch, type BankAccountSearch } from '../search.ts';
import { BankAccountFilters } from './bank-account-filters.tsx';
import { BankAccountsTable, BankAccountsTableSkeleton } from './bank-accounts-table.tsx';

// Module-level so the selector is stable and rows are only re-derived when data changes.
function selectRows(data: BankAccountListResponse) {
  return { ...data, results: data.results.map(toBankAccountRow) };
}

const NOUNS = {
  list: 'bank accounts',
  title: 'Bank accounts',
  one: 'bank account',
  many: 'bank accounts',
};

/** `/bank-accounts`: the URL search is the page's whole state (see CursorListPage). */
export function BankAccountsPage({
  search,
  onSearchChange,
  canReveal = false,
  canPropose = false,
}: {
  search: BankAccountSearch;
  onSearchChange: (next: BankAccountSearch) => void;
  /** The member's role may reveal full numbers (the server decides; this only offers it). */
  canReveal?: boolean;
  /** The member's role may propose accounts (initiators and admins). */
  canPropose?: boolean;
}) {
  const query = useQuery({
    ...bankAccountQueries.list(bankAccountSearch.toListParams(search)),
    select: selectRows,
  });

  return (
    <CursorListPage
      id="bank-accounts"
      nouns={NOUNS}
      query={query}
      search={search}
      onSearchChange={onSearchChange}
      filtersActive={bankAccountSearch.hasFilters(search)}
      skeleton={<BankAccountsTableSkeleton />}
      filters={
        <>
          {canPropose ? (
            <p>
              <Link
                to="/bank-accounts/new"
                search={{ subOrg: search.subOrg }}
                className={buttonVariants({ variant: 'primary' })}
              >
                Propose bank account
              </Link>
            </p>
          ) : null}
          <BankAccountFilters
            value={bankAccountSearch.pickFilters(search)}
            onChange={(patch) => onSearchChange(bankAccountSearch.withFilters(search, patch))}
            onClear={() => onSearchChange({})}
          />
        </>
      }
    >
      {(rows, busy) => <BankAccountsTable accounts={rows} busy={busy} canReveal={canReveal} />}
    </CursorListPage>
  );
}
