import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { CreatePaymentRunRequest, PAYMENT_RUN_COLUMNS } from '#contract/payment-runs.ts';
import { parseRunCsv, reconciliationCsv, runTemplateCsv } from './csv.ts';

describe('a payment run file', () => {
  it('reads quoted fields, a byte-order mark and CRLF line ends', () => {
    const text =
      '\uFEFFkind,sourceVaultId,contactId,asset,blockChain,amount,reference,memo\r\n' +
      'CRYPTO,v1,c1,USDC,ETHEREUM,1250.50,INV-1,"March, and ""April"""\r\n' +
      '\r\n' +
      'CRYPTO,v1,c2,USDC,ETHEREUM,10,INV-2,"two\r\nlines"\r\n';
    expect(parseRunCsv(text)).toEqual([
      {
        kind: 'CRYPTO',
        sourceVaultId: 'v1',
        contactId: 'c1',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '1250.50',
        reference: 'INV-1',
        memo: 'March, and "April"',
      },
      {
        kind: 'CRYPTO',
        sourceVaultId: 'v1',
        contactId: 'c2',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '10',
        reference: 'INV-2',
        memo: 'two\r\nlines',
      },
    ]);
  });

  it('maps a file’s own headers to the columns, and refuses one it cannot place', () => {
    const text = 'Type,Vault,Payee,Token,Network,Value,Invoice\nCRYPTO,v1,c1,USDC,ETHEREUM,5,I-9\n';
    const mapping = {
      Type: 'kind',
      Vault: 'sourceVaultId',
      Payee: 'contactId',
      Token: 'asset',
      Network: 'blockChain',
      Value: 'amount',
      Invoice: 'reference',
    };
    expect(parseRunCsv(text, mapping)).toEqual([
      {
        kind: 'CRYPTO',
        sourceVaultId: 'v1',
        contactId: 'c1',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '5',
        reference: 'I-9',
      },
    ]);
    const unmapped = (() => {
      try {
        parseRunCsv(text);
      } catch (error) {
        return error;
      }
    })();
    expect(unmapped).toBeInstanceOf(ApiError);
    expect((unmapped as ApiError).message).toMatch(/unknown column "Type"/);
    expect(() => parseRunCsv(text, { Type: 'colour' })).toThrow(/mapping names no column/);
  });

  it('offers a template whose rows read back as valid rows', () => {
    const template = runTemplateCsv();
    expect(template.split('\r\n')[0]).toBe(PAYMENT_RUN_COLUMNS.join(','));
    const rows = parseRunCsv(template);
    expect(rows).toHaveLength(3);
    expect(CreatePaymentRunRequest.safeParse({ name: 'Template', rows }).success).toBe(true);
  });
});

describe('the reconciliation file', () => {
  const row = {
    index: 1,
    reference: 'INV-1',
    asset: 'USDC',
    blockChain: 'ETHEREUM',
    amount: '10',
    status: 'COMPLETED' as const,
    externalId: 'run-r-row-1',
    transactionId: 'tx-1',
    txHash: '0xabc',
    feeAmount: '0.001',
    feeAsset: 'ETH',
    feeUsd: '3.2',
    completedAt: '2030-01-31T23:30:05.000Z',
    failure: null,
  };

  it('shows each completed time in the member’s zone, and names the zone', () => {
    const [header, line] = reconciliationCsv([row], 'Asia/Tokyo').split('\r\n');
    expect(header?.split(',').slice(-3)).toEqual(['completedAt', 'timeZone', 'failure']);
    // 23:30 UTC on 31 January is 08:30 the next day in Tokyo (UTC+9).
    expect(line?.split(',').slice(-3)).toEqual(['2030-02-01 08:30:05', 'Asia/Tokyo', '']);
    const [, utc] = reconciliationCsv([row], 'UTC').split('\r\n');
    expect(utc?.split(',').slice(-3)).toEqual(['2030-01-31 23:30:05', 'UTC', '']);
    // A row not yet ended has no time, and still names the zone it would be shown in.
    const [, pending] = reconciliationCsv([{ ...row, completedAt: null }], 'Europe/Berlin').split(
      '\r\n',
    );
    expect(pending?.split(',').slice(-3)).toEqual(['', 'Europe/Berlin', '']);
  });
});
