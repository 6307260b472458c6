import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { buttonVariants } from '../../../components/ui/button.tsx';
import type { BankAccountListResponse } from '#contract/bank-account.ts';
import {
  CursorListPage,
  type CursorListSpec,
  type ListPageProps,
} from '../../../components/cursor-list.tsx';
import { bankAccountQueries } from '../api/bank-account-queries.ts';
import { toBankAccountRow, type BankAccountRow } from '../bank-account-row.ts';
import {
  bankAccountSearch,
  type BankAccountSearch,
  type BankAccountSearchFilters,
} from '../search.ts';
import { BankAccountFilters } from './bank-account-filters.tsx';
import { BankAccountTableRow, bankAccountsTable } from './bank-accounts-table.tsx';

// Module-level so the selector is stable and rows are only re-derived when data changes.
function selectRows(data: BankAccountListResponse) {
  return { ...data, results: data.results.map(toBankAccountRow) };
}

function bankAccountsList(
  canReveal: boolean,
): CursorListSpec<BankAccountRow, BankAccountSearch, BankAccountSearchFilters> {
  return {
    id: 'bank-accounts',
    nouns: {
      list: 'bank accounts',
      title: 'Bank accounts',
      one: 'bank account',
      many: 'bank accounts',
    },
    search: bankAccountSearch,
    table: bankAccountsTable(canReveal),
  };
}

/** `/bank-accounts`: the URL search is the page's whole state (see CursorListPage). */
export function BankAccountsPage({
  canReveal = false,
  canPropose = false,
  ...props
}: ListPageProps<BankAccountSearch> & {
  /** The member's role may reveal full numbers (the server decides; this only offers it). */
  canReveal?: boolean;
  /** The member's role may propose accounts (initiators and admins). */
  canPropose?: boolean;
}) {
  const query = useQuery({
    ...bankAccountQueries.list(bankAccountSearch.toListParams(props.search)),
    select: selectRows,
  });

  return (
    <CursorListPage
      spec={bankAccountsList(canReveal)}
      query={query}
      {...props}
      intro={
        canPropose ? (
          <p>
            <Link
              to="/bank-accounts/new"
              search={{ subOrg: props.search.subOrg }}
              className={buttonVariants({ variant: 'primary' })}
            >
              Propose bank account
            </Link>
          </p>
        ) : null
      }
      filters={(filters) => <BankAccountFilters {...filters} />}
    >
      {(account) => <BankAccountTableRow account={account} canReveal={canReveal} />}
    </CursorListPage>
  );
}
