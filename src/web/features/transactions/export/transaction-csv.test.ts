import { describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '#contract/approval-decision.ts';
import type { Transaction } from '#contract/transaction.ts';
import { csvRecords } from '../../../test/parse-csv.ts';
import {
  TRANSACTION_CSV_HEADERS,
  transactionCsvHeader,
  transactionCsvRows,
} from './transaction-csv.ts';

const tx: Transaction = {
  id: 'tx-1',
  status: 'COMPLETED',
  transactionType: 'OUTGOING',
  category: 'TRANSFER',
  subCategory: 'EXTERNAL_TRANSFER',
  blockChain: 'ETHEREUM',
  asset: 'ETH',
  // More digits than a JS number holds: must come out character for character.
  amount: '12345678901234567.000000000000000001',
  amountInUSD: '0.10',
  fees: { amount: '0.000021000000000000', asset: 'ETH', amountInFiat: '0.05' },
  createdAt: '2026-11-20T10:00:00+02:00',
  updatedAt: '2026-11-20T08:05:00.123Z',
  source: { type: 'VAULT', id: 'v-1', name: 'Ops, main' },
  destination: { type: 'EXTERNAL_ADDRESS', address: '0xabc' },
  memo: '=HYPERLINK("http://evil","click")',
  externalId: 'inv "42"',
  createdById: 'staff-1',
};

const decision: ApprovalDecision = {
  entityId: 'tx-1',
  entityType: 'TRANSACTION',
  decision: 'APPROVED',
  decidedAt: '2026-11-20T08:01:00.000Z',
  decidedBy: { type: 'STAFF', id: 'staff-2', name: 'Abe Approver' },
  reason: null,
};

function exported(rows: Transaction[], decisions: ApprovalDecision[] = [], timeZone = 'UTC') {
  return csvRecords(
    transactionCsvHeader() +
      transactionCsvRows(rows, new Map(decisions.map((d) => [d.entityId, d])), timeZone),
  );
}

describe('transaction CSV', () => {
  it('writes one row per transaction under a header naming every column', () => {
    const records = exported([tx, { ...tx, id: 'tx-2' }]);
    expect(records).toHaveLength(2);
    expect(Object.keys(records[0] ?? {})).toEqual(TRANSACTION_CSV_HEADERS);
  });

  it('keeps amounts exactly as the API gave them', () => {
    const [row] = exported([tx]);
    expect(row?.amount).toBe('12345678901234567.000000000000000001');
    expect(row?.feeAmount).toBe('0.000021000000000000');
    expect(row?.amountInUSD).toBe('0.10');
  });

  it('writes times as ISO 8601 in UTC for a member on UTC', () => {
    const [row] = exported([tx], [decision]);
    expect(row?.createdAt).toBe('2026-11-20T08:00:00.000Z');
    expect(row?.updatedAt).toBe('2026-11-20T08:05:00.123Z');
    expect(row?.approvalDecidedAt).toBe('2026-11-20T08:01:00.000Z');
    expect(row?.timeZone).toBe('UTC');
  });

  it("writes times in the member's time zone, the offset written out and the zone named", () => {
    const [row] = exported([tx], [decision], 'America/Los_Angeles');
    expect(row?.createdAt).toBe('2026-11-20T00:00:00.000-08:00');
    expect(row?.updatedAt).toBe('2026-11-20T00:05:00.123-08:00');
    expect(row?.approvalDecidedAt).toBe('2026-11-20T00:01:00.000-08:00');
    expect(row?.timeZone).toBe('America/Los_Angeles');
    // The same instants, whatever the zone: a parser reads what the API said.
    expect(Date.parse(row?.createdAt ?? '')).toBe(Date.parse(tx.createdAt ?? ''));
    const [kolkata] = exported([tx], [], 'Asia/Kolkata');
    expect(kolkata?.createdAt).toBe('2026-11-20T13:30:00.000+05:30');
  });

  it('escapes commas and quotes and defuses formulas', () => {
    const [row] = exported([tx]);
    expect(row?.sourceName).toBe('Ops, main');
    expect(row?.externalId).toBe('inv "42"');
    expect(row?.memo).toBe(`'=HYPERLINK("http://evil","click")`);
  });

  it('includes who decided and when, and leaves undecided rows blank there', () => {
    const [decided, pending] = exported([tx, { ...tx, id: 'tx-3', status: 'PENDING' }], [decision]);
    expect(decided).toMatchObject({
      approvalDecision: 'APPROVED',
      approvalDecidedByName: 'Abe Approver',
      approvalDecidedById: 'staff-2',
      approvalDecidedByType: 'STAFF',
    });
    expect(pending?.approvalDecision).toBe('');
    expect(pending?.approvalDecidedAt).toBe('');
  });
});
