import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AuditFilters } from '../../contract/auth.ts';
import { TransactionFilters } from '../../contract/transaction.ts';
import { defineListSearch } from './list-search.ts';

describe('defineListSearch', () => {
  const transactions = defineListSearch(TransactionFilters);

  it('takes every filter the contract declares, the scope as subOrg and the page', () => {
    expect(Object.keys(transactions.schema.shape).sort()).toEqual(
      [
        ...Object.keys(TransactionFilters.shape).filter((key) => key !== 'subOrgId'),
        'cursor',
        'page',
        'subOrg',
      ].sort(),
    );
  });

  it('drops a value the contract refuses instead of failing the page', () => {
    expect(
      transactions.schema.parse({ status: 'DONE', category: 'TRANSFER', createdAtLte: 'soon' }),
    ).toEqual({ category: 'TRANSFER' });
  });

  it('starts from the first page when a filter changes, keeping the scope', () => {
    const search = { status: 'COMPLETED' as const, cursor: 'c3', page: 3, subOrg: 'org-1' };
    expect(transactions.withFilters(search, { status: undefined, asset: 'ETH' })).toEqual({
      asset: 'ETH',
      subOrg: 'org-1',
    });
    expect(transactions.hasFilters({ subOrg: 'org-1', cursor: 'c2' })).toBe(false);
  });

  it('asks the API for the filters, the scope as subOrgId and the current cursor only', () => {
    expect(
      transactions.toListParams({ vaultId: 'v1', cursor: 'c3', page: 3, subOrg: 'org-1' }),
    ).toEqual({ vaultId: 'v1', subOrgId: 'org-1', cursor: 'c3' });
  });

  it('leaves out what a page omits from the contract, and the scope of an unscoped list', () => {
    const audit = defineListSearch(z.omit(AuditFilters, { entityType: true }));
    expect(
      audit.schema.parse({ entityType: 'bank_account', outcome: 'denied', subOrg: 'x' }),
    ).toEqual({ outcome: 'denied' });
    expect(audit.toListParams({ outcome: 'denied' })).toEqual({ outcome: 'denied' });
  });
});
