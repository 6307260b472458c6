import type { QueryClient } from '@tanstack/react-query';
import type { ApprovalLiveEvent } from '#contract/live-events.ts';
import { bankAccountQueries } from './bank-account-queries.ts';

/**
 * What pushed approval events (lib/live-updates.ts) make stale among the bank
 * accounts' queries: each account's page (facts, history) and, when one was
 * proposed or decided, the lists, whose rows show its status. A vote alone
 * moves only the page's approval progress, which is keyed under the inbox.
 */
export function invalidateBankAccountChanges(
  queryClient: QueryClient,
  events: readonly ApprovalLiveEvent[],
): void {
  const mine = events.filter((e) => e.entityType === 'BANK_ACCOUNT');
  for (const id of new Set(mine.map((e) => e.entityId)))
    void queryClient.invalidateQueries({ queryKey: bankAccountQueries.detail(id).queryKey });
  if (mine.some((e) => e.kind !== 'approval.vote'))
    void queryClient.invalidateQueries({ queryKey: bankAccountQueries.lists() });
}

/** Everything the bank accounts' pages show, after changes may have been missed. */
export function invalidateAllBankAccounts(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: bankAccountQueries.all() });
}
