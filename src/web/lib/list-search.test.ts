import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AuditFilters } from '#contract/auth.ts';
import { TransactionFilters } from '#contract/transaction.ts';
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

  it('keeps day filters as days in the URL, and asks for them as instants in the zone given', () => {
    const days = defineListSearch(TransactionFilters, { days: ['createdAtGte', 'createdAtLte'] });
    const search = days.schema.parse({
      createdAtGte: '2026-11-24',
      createdAtLte: '2026-11-24',
      page: '2',
      cursor: 'c2',
    });
    expect(search).toMatchObject({ createdAtGte: '2026-11-24', createdAtLte: '2026-11-24' });
    expect(days.hasDays(search)).toBe(true);
    expect(days.listDeps(search)).toEqual({
      createdAtGte: '2026-11-24',
      createdAtLte: '2026-11-24',
      cursor: 'c2',
    });
    expect(days.toListParams(search, 'America/Los_Angeles')).toEqual({
      createdAtGte: '2026-11-24T08:00:00.000Z',
      createdAtLte: '2026-11-25T07:59:59.999Z',
      cursor: 'c2',
    });
    expect(days.toListParams(search, 'Europe/Berlin')).toEqual({
      createdAtGte: '2026-11-23T23:00:00.000Z',
      createdAtLte: '2026-11-24T22:59:59.999Z',
      cursor: 'c2',
    });
  });

  it('reads a link from before days were kept (a UTC instant) as its UTC day, and drops nonsense', () => {
    const days = defineListSearch(TransactionFilters, { days: ['createdAtGte', 'createdAtLte'] });
    expect(
      days.schema.parse({
        createdAtGte: '2025-03-09T00:00:00.000Z',
        createdAtLte: '2025-03-09T23:59:59.999Z',
      }),
    ).toMatchObject({ createdAtGte: '2025-03-09', createdAtLte: '2025-03-09' });
    const dropped = days.schema.parse({ createdAtGte: 'soon', createdAtLte: '2025-02-30' });
    expect(dropped.createdAtGte).toBeUndefined();
    expect(dropped.createdAtLte).toBeUndefined();
    expect(days.hasDays(dropped)).toBe(false);
  });

  it('leaves out what a page omits from the contract, and the scope of an unscoped list', () => {
    const audit = defineListSearch(z.omit(AuditFilters, { entityType: true }));
    expect(
      audit.schema.parse({ entityType: 'bank_account', outcome: 'denied', subOrg: 'x' }),
    ).toEqual({ outcome: 'denied' });
    expect(audit.toListParams({ outcome: 'denied' })).toEqual({ outcome: 'denied' });
  });
});
