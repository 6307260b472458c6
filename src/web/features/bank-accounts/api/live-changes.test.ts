import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ApprovalLiveEvent } from '#contract/live-events.ts';
import { bankAccountQueries } from './bank-account-queries.ts';
import { invalidateBankAccountChanges } from './live-changes.ts';

const event = (
  kind: ApprovalLiveEvent['kind'],
  entityId: string,
  entityType: ApprovalLiveEvent['entityType'] = 'BANK_ACCOUNT',
): ApprovalLiveEvent => ({
  kind,
  entityType,
  entityId,
  subOrgId: null,
  status: kind === 'approval.decided' ? 'APPROVED' : 'PENDING',
  at: '2026-11-26T10:00:00.000Z',
});

/** A cache holding two accounts' pages and a list, all fresh. */
function cache() {
  const client = new QueryClient();
  for (const id of ['a', 'b']) {
    client.setQueryData(bankAccountQueries.detail(id).queryKey, { id } as never);
    client.setQueryData(bankAccountQueries.history(id).queryKey, [] as never);
  }
  client.setQueryData([...bankAccountQueries.lists(), {}], { results: [] });
  const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated ?? false;
  return {
    client,
    detail: (id: string) => stale(bankAccountQueries.detail(id).queryKey),
    history: (id: string) => stale(bankAccountQueries.history(id).queryKey),
    list: () => stale([...bankAccountQueries.lists(), {}]),
  };
}

describe('what a pushed approval event makes stale among bank accounts', () => {
  it('a decision: that account’s page and history, and the lists; no other account', () => {
    const c = cache();
    invalidateBankAccountChanges(c.client, [event('approval.decided', 'a')]);
    expect([c.detail('a'), c.history('a'), c.list()]).toEqual([true, true, true]);
    expect([c.detail('b'), c.history('b')]).toEqual([false, false]);
  });

  it('a vote: the account’s page only (its progress moved, its status did not)', () => {
    const c = cache();
    invalidateBankAccountChanges(c.client, [event('approval.vote', 'b')]);
    expect([c.detail('b'), c.list(), c.detail('a')]).toEqual([true, false, false]);
  });

  it('a contact’s or a transaction’s events: nothing', () => {
    const c = cache();
    invalidateBankAccountChanges(c.client, [
      event('approval.proposed', 'a', 'CONTACT'),
      event('approval.vote', 'a', 'TRANSACTION'),
    ]);
    expect([c.detail('a'), c.list()]).toEqual([false, false]);
  });
});
