import type { ApprovalDecision } from '#contract/approval-decision.ts';
import type { Party, Transaction } from '#contract/transaction.ts';
import { csvLine, type CsvValue } from '../../../lib/csv.ts';
import { isoInZone } from '../../../lib/dates.ts';

/**
 * One CSV row per transaction, every value as the API gave it: amounts are
 * the API's decimal strings untouched (never parsed into numbers), times are
 * ISO 8601 in the member's time zone with its offset written out (the zone's
 * name in the last column), so a spreadsheet shows the wall clock the console
 * shows and a parser still reads the same instant. The approval columns come from the console's decision
 * record (GET /api/console/approval_decisions/); they are empty for a
 * transaction nobody has decided (still PENDING, or incoming).
 */

interface Row {
  tx: Transaction;
  decision: ApprovalDecision | undefined;
  timeZone: string;
}
type Column = readonly [header: string, value: (row: Row) => CsvValue];

const party = (pick: (tx: Transaction) => Party | undefined, prefix: string): Column[] => [
  [`${prefix}Type`, ({ tx }) => pick(tx)?.type],
  [`${prefix}Id`, ({ tx }) => pick(tx)?.id],
  [`${prefix}Name`, ({ tx }) => pick(tx)?.name],
  [`${prefix}Address`, ({ tx }) => pick(tx)?.address],
];

/** A time in the row's zone; a value that is not a time is written as given rather than dropped. */
const time = (value: string | null | undefined, timeZone: string) =>
  value ? isoInZone(value, timeZone) : undefined;

const COLUMNS: readonly Column[] = [
  ['id', ({ tx }) => tx.id],
  ['createdAt', ({ tx, timeZone }) => time(tx.createdAt, timeZone)],
  ['updatedAt', ({ tx, timeZone }) => time(tx.updatedAt, timeZone)],
  ['status', ({ tx }) => tx.status],
  ['transactionType', ({ tx }) => tx.transactionType],
  ['category', ({ tx }) => tx.category],
  ['subCategory', ({ tx }) => tx.subCategory],
  ['blockChain', ({ tx }) => tx.blockChain],
  ['asset', ({ tx }) => tx.asset],
  ['amount', ({ tx }) => tx.amount],
  ['amountInUSD', ({ tx }) => tx.amountInUSD],
  ['feeAmount', ({ tx }) => tx.fees?.amount],
  ['feeAsset', ({ tx }) => tx.fees?.asset],
  ['feeAmountInFiat', ({ tx }) => tx.fees?.amountInFiat],
  ['subOrgId', ({ tx }) => tx.subOrgId],
  ['vaultId', ({ tx }) => tx.vaultId],
  ...party((tx) => tx.source, 'source'),
  ...party((tx) => tx.destination, 'destination'),
  ['txHash', ({ tx }) => tx.txHash],
  ['nonce', ({ tx }) => tx.nonce],
  ['externalId', ({ tx }) => tx.externalId],
  ['memo', ({ tx }) => tx.memo],
  ['error', ({ tx }) => tx.error],
  ['createdById', ({ tx }) => tx.createdById],
  ['approvalDecision', ({ decision }) => decision?.decision],
  ['approvalDecidedAt', ({ decision, timeZone }) => time(decision?.decidedAt, timeZone)],
  ['approvalDecidedByType', ({ decision }) => decision?.decidedBy.type],
  ['approvalDecidedById', ({ decision }) => decision?.decidedBy.id],
  ['approvalDecidedByName', ({ decision }) => decision?.decidedBy.name],
  ['approvalReason', ({ decision }) => decision?.reason],
  ['timeZone', ({ timeZone }) => timeZone],
];

export const TRANSACTION_CSV_HEADERS: readonly string[] = COLUMNS.map(([header]) => header);

export function transactionCsvHeader(): string {
  return csvLine(TRANSACTION_CSV_HEADERS);
}

/** The CSV lines of one page of transactions, with each one's decision when it has one, times in `timeZone`. */
export function transactionCsvRows(
  transactions: readonly Transaction[],
  decisions: ReadonlyMap<string, ApprovalDecision>,
  timeZone: string,
): string {
  let out = '';
  for (const tx of transactions) {
    const decision = tx.id ? decisions.get(tx.id) : undefined;
    out += csvLine(COLUMNS.map(([, value]) => value({ tx, decision, timeZone })));
  }
  return out;
}
