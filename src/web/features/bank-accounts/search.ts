import { z } from 'zod';
import { BankAccountStatus, PaymentMethod } from '../../../contract/enums.ts';
import type { BankAccountListParams } from '../../lib/api-client.ts';
import { compact, cursorPageSearch } from '../../lib/paging.ts';
import { scopeSearch } from '../../lib/scope.ts';

/** `/bank-accounts` search params; unparsable values are dropped. */
export const BankAccountSearch = z.object({
  status: BankAccountStatus.optional().catch(undefined),
  paymentMethod: PaymentMethod.optional().catch(undefined),
  ...cursorPageSearch,
  ...scopeSearch,
});
export type BankAccountSearch = z.output<typeof BankAccountSearch>;
export type BankAccountSearchFilters = Pick<BankAccountSearch, 'status' | 'paymentMethod'>;

/** The list call (and query key): filters, the scope as `subOrgId`, the current cursor. */
export function toBankAccountListParams(search: BankAccountSearch): BankAccountListParams {
  return compact({
    ...pickBankAccountFilters(search),
    subOrgId: search.subOrg,
    cursor: search.cursor,
  });
}

export function pickBankAccountFilters(search: BankAccountSearch): BankAccountSearchFilters {
  return compact({ status: search.status, paymentMethod: search.paymentMethod });
}

export function hasActiveBankAccountFilters(search: BankAccountSearch): boolean {
  return search.status !== undefined || search.paymentMethod !== undefined;
}

/** Applies filter changes; any change starts again from the first page. */
export function withBankAccountFilters(
  search: BankAccountSearch,
  patch: Partial<BankAccountSearchFilters>,
): BankAccountSearch {
  return compact({ ...search, ...patch, cursor: undefined, prev: undefined });
}
