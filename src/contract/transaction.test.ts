import { describe, expect, it } from 'vitest';
import { PageQuery, listEnvelope } from './common.ts';
import {
  CreateTransactionRequest,
  EstimatedFeeResponse,
  ReplaceTransactionRequest,
  Transaction,
  TransactionFilters,
  TransactionListResponse,
} from './transaction.ts';

const vault = { type: 'VAULT', id: 'vault_1' } as const;
const contact = { type: 'CONTACT', id: 'contact_1' } as const;

function issuePaths(input: unknown): string[] {
  const r = CreateTransactionRequest.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

describe('CreateTransactionRequest', () => {
  it('accepts each of the four kinds the description shows', () => {
    const bodies = [
      {
        category: 'TRANSFER',
        source: vault,
        destination: contact,
        amount: '1.5',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        gasParams: { feeTier: 'LOW' },
      },
      {
        category: 'CONTRACT_CALL',
        vaultId: 'vault_1',
        blockChain: 'ETHEREUM',
        data: { callData: '0xa9059cbb', toAddress: '0xabc' },
      },
      {
        category: 'CONTRACT_CALL',
        vaultId: 'vault_1',
        blockChain: 'ICP',
        data: { canisterId: 'ryjl3', method: 'transfer', arg: '' },
      },
      {
        category: 'CONTRACT_CALL',
        vaultId: 'vault_1',
        blockChain: 'SOLANA',
        data: { messageHex: 'deadbeef' },
      },
      {
        category: 'CONTRACT_CALL',
        vaultId: 'vault_1',
        blockChain: 'TRON',
        data: { method: 'vote', params: { sr: 'T...' } },
      },
      {
        category: 'STAKE',
        source: vault,
        asset: 'TRX',
        blockChain: 'TRON',
        amount: '100',
        resourceType: 'TRON_ENERGY',
      },
      {
        category: 'DELEGATE_RESOURCE',
        source: vault,
        destination: contact,
        asset: 'TRX',
        blockChain: 'TRON',
        amount: '10',
        resourceType: 'TRON_BANDWIDTH',
      },
    ];
    for (const body of bodies)
      expect(CreateTransactionRequest.safeParse(body).success, JSON.stringify(body)).toBe(true);
  });

  it('names the field and the rule for a bad amount', () => {
    const base = {
      category: 'TRANSFER',
      source: vault,
      destination: contact,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    };
    for (const amount of ['0', '-1', '1e5', '01', '1.', 12]) {
      expect(issuePaths({ ...base, amount })).toEqual(['amount']);
    }
  });

  it('requires destination and resourceType to delegate', () => {
    const paths = issuePaths({
      category: 'DELEGATE_RESOURCE',
      source: vault,
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '1',
    });
    expect(paths).toEqual(expect.arrayContaining(['destination', 'resourceType']));
  });

  it('refuses unknown fields, unknown categories and unknown party types', () => {
    const transfer = {
      category: 'TRANSFER',
      source: vault,
      destination: contact,
      amount: '1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    };
    expect(CreateTransactionRequest.safeParse({ ...transfer, chain: 'ETHEREUM' }).success).toBe(
      false,
    );
    expect(CreateTransactionRequest.safeParse({ ...transfer, category: 'SWAP' }).success).toBe(
      false,
    );
    expect(issuePaths({ ...transfer, destination: { type: 'WALLET', id: 'x' } })).toEqual([
      'destination.type',
    ]);
  });

  it('refuses call data that is not hex', () => {
    const r = CreateTransactionRequest.safeParse({
      category: 'CONTRACT_CALL',
      vaultId: 'v',
      blockChain: 'ETHEREUM',
      data: { callData: 'xyz' },
    });
    expect(r.success).toBe(false);
  });

  it('requires transactionId to replace', () => {
    expect(ReplaceTransactionRequest.safeParse({}).success).toBe(false);
    expect(ReplaceTransactionRequest.safeParse({ transactionId: 'tx_1' }).success).toBe(true);
  });
});

describe('Transaction responses', () => {
  it('keep unknown fields and accept a minimal create response', () => {
    const created = Transaction.parse({
      id: 'tx_1',
      status: 'PENDING',
      category: 'TRANSFER',
      extra: { a: 1 },
    });
    expect(created.extra).toEqual({ a: 1 });
    expect(created.txHash).toBeUndefined();
  });

  it('parse a list envelope with or without paging fields', () => {
    expect(TransactionListResponse.parse({ results: [] })).toEqual({ results: [] });
    expect(
      TransactionListResponse.parse({ results: [{ id: 'a' }], nextCursor: null, hasNext: false })
        .hasNext,
    ).toBe(false);
    expect(listEnvelope(Transaction).safeParse({ nextCursor: 'x' }).success).toBe(false);
  });

  it('require every FeeData field the description marks required', () => {
    const fee = { expectedFeeInAsset: '0.001', asset: 'ETH', expectedFeeInUSD: '3.2' };
    expect(EstimatedFeeResponse.safeParse({ high: fee, medium: fee, low: fee }).success).toBe(true);
    expect(
      EstimatedFeeResponse.safeParse({ high: fee, medium: fee, low: { asset: 'ETH' } }).success,
    ).toBe(false);
  });
});

describe('list query', () => {
  it('accepts limits 1 to 100 and refuses the rest', () => {
    expect(PageQuery.parse({ limit: '1' }).limit).toBe(1);
    expect(PageQuery.parse({ limit: '100' }).limit).toBe(100);
    for (const limit of ['0', '101', 'abc', '1.5', '-1', '']) {
      expect(PageQuery.safeParse({ limit }).success, limit).toBe(false);
    }
  });

  it('validates transaction filters', () => {
    expect(
      TransactionFilters.safeParse({ status: 'COMPLETED', createdAtGte: '2026-01-01T00:00:00Z' })
        .success,
    ).toBe(true);
    expect(TransactionFilters.safeParse({ status: 'DONE' }).success).toBe(false);
    expect(TransactionFilters.safeParse({ createdAtLte: 'yesterday' }).success).toBe(false);
  });
});
