import type { ApprovalItem } from '#contract/approval-inbox.ts';

/** What may be approved together: a transaction, or an item of a kind the console holds. */
export type BulkItem = Extract<ApprovalItem, { kind: 'TRANSACTION' | 'HELD' }>;

/** "transaction" or "transactions"; "item(s)" once the batch holds an item of another kind. */
export function batchNoun(items: readonly BulkItem[]): string {
  const one = items.length === 1;
  if (items.every((item) => item.kind === 'TRANSACTION'))
    return one ? 'transaction' : 'transactions';
  return one ? 'item' : 'items';
}

/** The item may be approved in a batch (bulkRefusal says why not). */
export const bulkApprovable = (item: ApprovalItem): item is BulkItem =>
  (item.kind === 'TRANSACTION' || item.kind === 'HELD') && !bulkRefusal(item);

/**
 * Why an item cannot be approved together with others, or null when it can.
 * Only what the inbox can show in full is approved in bulk: a bank account's
 * approval rests on its full numbers, which the console reveals one account
 * at a time (an audited read, on the account's page), and a contract call's
 * on its call data, decoded on its page. An item of a kind the console holds
 * is its approval card, shown whole in the batch. One's own items are another
 * member's to decide (four-eyes; the server refuses them anyway).
 */
export function bulkRefusal(item: ApprovalItem): string | null {
  if (item.yours) return 'Yours: another member must decide it';
  if (item.youApprovedAt) return 'You approved it: it waits for another approver';
  if (item.kind === 'BANK_ACCOUNT')
    return 'A bank account is approved on its own page, against its full numbers';
  if (item.kind === 'CONTACT')
    return 'A contact is approved on its own page, against its full address';
  if (item.kind === 'HELD') return null;
  if (item.transaction.category === 'CONTRACT_CALL')
    return 'A contract call is approved on its own page, with its call decoded';
  return null;
}
