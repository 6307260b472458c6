import type { ApprovalItem } from '#contract/approval-inbox.ts';
import { chainLabel } from '#contract/chains.ts';
import type { ApprovalCard } from '#contract/approval-card.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import { humanize, paymentMethodLabel } from './labels.ts';
import { describeTransaction } from './transaction-summary.ts';
import { compact } from './paging.ts';

/**
 * What the approvals inbox and the pages opened from it say about an item,
 * and where an item stands in the inbox's order. In lib, not in a feature:
 * the inbox, the transaction page and the bank-account page all use it
 * (approval-inbox-count.ts says why the inbox's key lives here too).
 */

/** An item's place in the inbox, as any of its pages knows it. */
export interface InboxKey {
  kind: ApprovalItem['kind'];
  id: string;
  createdAt: string | null | undefined;
}

/**
 * Where an item page was opened from: the inbox page (its cursor and number)
 * in the browser's history entry, so next and previous read that same page
 * of the inbox. Absent when the page was reached any other way.
 */
export interface InboxPlace {
  cursor: string | null;
  page: number | null;
}

declare module '@tanstack/history' {
  interface HistoryState {
    approvalInbox?: InboxPlace;
  }
}

/** The inbox read an item page re-reads: the same query (and key) as the inbox page's. */
export function inboxListParams(subOrg: string | undefined, place: InboxPlace) {
  return compact({ subOrgId: subOrg, cursor: place.cursor ?? undefined });
}

/** The inbox page's own search for `place`: back to the same page. */
export function inboxSearch(place: InboxPlace) {
  return compact({ cursor: place.cursor ?? undefined, page: place.page ?? undefined });
}

/**
 * The server's order (console/approval-inbox.ts): newest first, then a
 * transaction before a bank account, then id, descending. Negative when `a`
 * comes first.
 */
export function compareInboxOrder(a: InboxKey, b: InboxKey): number {
  const time = (k: InboxKey) => {
    const t = k.createdAt ? Date.parse(k.createdAt) : Number.NaN;
    return Number.isFinite(t) ? t : 0;
  };
  if (time(a) !== time(b)) return time(b) - time(a);
  if (a.kind !== b.kind) return a.kind < b.kind ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}

export interface InboxNeighbours {
  previous: ApprovalItem | undefined;
  next: ApprovalItem | undefined;
  /**
   * The next item this member may decide: the first after `current` that is
   * not their own, else the first before it (one skipped on the way down).
   */
  nextToDecide: ApprovalItem | undefined;
}

/** The items around `current` in a page of the inbox, whether or not `current` is still in it. */
export function inboxNeighbours(
  items: readonly ApprovalItem[],
  current: InboxKey,
): InboxNeighbours {
  const others = items.filter((item) => !(item.kind === current.kind && item.id === current.id));
  const after = others.filter((item) => compareInboxOrder(current, item) < 0);
  const before = others.filter((item) => compareInboxOrder(item, current) < 0);
  return {
    previous: before.at(-1),
    next: after[0],
    nextToDecide: after.find(theirsToDecide) ?? before.find(theirsToDecide),
  };
}

/** Not the member's own, and not one they approved that waits for others. */
const theirsToDecide = (item: ApprovalItem) => !item.yours && !item.youApprovedAt;

/** The masked account number of a bank account item, kept whole on one line where shown. */
export function describeItemParts(item: ApprovalItem): { text: string; number: string | null } {
  if (item.kind === 'TRANSACTION')
    return { text: describeTransaction(item.transaction), number: null };
  if (item.kind === 'CONTACT') return describeContact(item.contact);
  if (item.kind === 'HELD') return { text: describeCard(item.card), number: null };
  const account = item.bankAccount;
  const rail = paymentMethodLabel(account.paymentMethod);
  const text = [
    `${rail ? `${rail} account` : 'Bank account'} ${account.accountName ?? ''}`.trimEnd(),
    account.bankName,
  ]
    .filter(Boolean)
    .join(' · ');
  return { text, number: account.accountNumber || null };
}

/**
 * An item of a kind the console holds, from its approval card alone (the
 * card is what is signed): "Payout of 1,250.5 USD to Payee One Ltd".
 */
function describeCard({ intent }: ApprovalCard): string {
  const what = humanize(intent.category) || humanize(intent.kind);
  const amount = intent.amount ? ` of ${formatAmount(intent.amount)} ${intent.asset ?? ''}` : '';
  const to = intent.destination?.name ?? intent.destination?.address;
  return `${what}${amount}`.trimEnd() + (to ? ` to ${to}` : '');
}

/** A contact proposed, or a new asset list for one: its name, chain and short address. */
function describeContact(contact: Extract<ApprovalItem, { kind: 'CONTACT' }>['contact']) {
  const chain = chainLabel(contact.blockChain);
  const name = `${contact.name ?? 'Contact'}${chain ? ` on ${chain}` : ''}`;
  const assets = (list: readonly string[] | null | undefined) =>
    list && list.length > 0 ? list.join(', ') : 'any asset';
  const text = contact.pendingAssetList
    ? `Asset list of ${name}: ${assets(contact.pendingAssetList)} (approved now: ${assets(contact.assetList)})`
    : `${name}, receiving ${assets(contact.assetList)}`;
  return { text, number: contact.address ? shortAddress(contact.address) : null };
}

/** "0x5aAe…eAed": enough to recognise an address in a row; its page shows it whole. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** One line naming the item, as a reviewer scans for it: amount and destination, or the account. */
export function describeItem(item: ApprovalItem): string {
  const { text, number } = describeItemParts(item);
  return number ? `${text} · ${number}` : text;
}

/** "Ada Approver", "treasury bot (API client)"; undefined when nothing this console records names them. */
export function initiatorName(item: ApprovalItem): string | undefined {
  const who = item.initiator;
  if (!who) return undefined;
  const name = who.name ?? who.id;
  return who.type === 'API_USER' ? `${name} (API client)` : name;
}

/** "just now", "12 min ago", "3 h ago", "4 d ago": how long an item has waited. */
export function formatAge(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return 'at an unknown time';
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
