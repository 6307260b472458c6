import type { ApprovalDecision } from '#contract/approval-decision.ts';
import type { Party, Transaction } from '#contract/transaction.ts';
import { csvLine, type CsvValue } from '../../../lib/csv.ts';

/**
 * One CSV row per transaction, every value as the API gave it: amounts are
 * the API's decimal strings untouched (never parsed into numbers), times are
 * ISO 8601 in UTC. The approval columns come from the console's decision
 * record (GET /api/console/approval_decisions/); they are empty for a
 * transaction nobody has decided (still PENDING, or incoming).
 */

type Column = readonly [header: string, value: (tx: Transaction, d?: ApprovalDecision) => CsvValue];

const party = (pick: (tx: Transaction) => Party | undefined, prefix: string): Column[] => [
  [`${prefix}Type`, (tx) => pick(tx)?.type],
  [`${prefix}Id`, (tx) => pick(tx)?.id],
  [`${prefix}Name`, (tx) => pick(tx)?.name],
  [`${prefix}Address`, (tx) => pick(tx)?.address],
];

/** ISO 8601 UTC; a value that is not a time is written as given rather than dropped. */
export function isoTime(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? value : time.toISOString();
}

const COLUMNS: readonly Column[] = [
  ['id', (tx) => tx.id],
  ['createdAt', (tx) => isoTime(tx.createdAt)],
  ['updatedAt', (tx) => isoTime(tx.updatedAt)],
  ['status', (tx) => tx.status],
  ['transactionType', (tx) => tx.transactionType],
  ['category', (tx) => tx.category],
  ['subCategory', (tx) => tx.subCategory],
  ['blockChain', (tx) => tx.blockChain],
  ['asset', (tx) => tx.asset],
  ['amount', (tx) => tx.amount],
  ['amountInUSD', (tx) => tx.amountInUSD],
  ['feeAmount', (tx) => tx.fees?.amount],
  ['feeAsset', (tx) => tx.fees?.asset],
  ['feeAmountInFiat', (tx) => tx.fees?.amountInFiat],
  ['subOrgId', (tx) => tx.subOrgId],
  ['vaultId', (tx) => tx.vaultId],
  ...party((tx) => tx.source, 'source'),
  ...party((tx) => tx.destination, 'destination'),
  ['txHash', (tx) => tx.txHash],
  ['nonce', (tx) => tx.nonce],
  ['externalId', (tx) => tx.externalId],
  ['memo', (tx) => tx.memo],
  ['error', (tx) => tx.error],
  ['createdById', (tx) => tx.createdById],
  ['approvalDecision', (_tx, d) => d?.decision],
  ['approvalDecidedAt', (_tx, d) => isoTime(d?.decidedAt)],
  ['approvalDecidedByType', (_tx, d) => d?.decidedBy.type],
  ['approvalDecidedById', (_tx, d) => d?.decidedBy.id],
  ['approvalDecidedByName', (_tx, d) => d?.decidedBy.name],
  ['approvalReason', (_tx, d) => d?.reason],
];

export const TRANSACTION_CSV_HEADERS: readonly string[] = COLUMNS.map(([header]) => header);

export function transactionCsvHeader(): string {
  return csvLine(TRANSACTION_CSV_HEADERS);
}

/** The CSV lines of one page of transactions, with each one's decision when it has one. */
export function transactionCsvRows(
  transactions: readonly Transaction[],
  decisions: ReadonlyMap<string, ApprovalDecision>,
): string {
  let out = '';
  for (const tx of transactions) {
    const decision = tx.id ? decisions.get(tx.id) : undefined;
    out += csvLine(COLUMNS.map(([, value]) => value(tx, decision)));
  }
  return out;
}
