import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { CreatePaymentRunRequest, PAYMENT_RUN_COLUMNS } from '#contract/payment-runs.ts';
import { parseRunCsv, runTemplateCsv } from './csv.ts';

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
