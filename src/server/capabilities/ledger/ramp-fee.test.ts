import { describe, expect } from 'vitest';
import { add, cmp, neg, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerStatement } from '#contract/endpoints/ledger.ts';
import { LedgerStatementResponse } from '#contract/ledger.ts';
import { RampQuote } from '#contract/ramp-record.ts';
import { Transaction } from '#contract/transaction.ts';
import { toQueryString } from '#contract/paths.ts';
import { INTENT_CREATE_PATH, rampTest as it, runRampToEnd } from '../../test/ramp-fixtures.ts';

const V2_QUOTE_PATH = '/api/external/transactions/v2/quote/';

describe('a ramp in the ledger', () => {
  it('an off-ramp’s provider fee is a FEE line of its own in the vault’s statement, the debit without it, the bank’s number never whole', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const begun = t.clock.now();
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const q = await client.call('js', 'POST', V2_QUOTE_PATH, {
      intent: {
        input: { asset: 'USDC', amount: '300' },
        output: { asset: 'USD' },
        source: { type: 'VAULT', id: f.treasury.id, chain: 'ETHEREUM' },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id, paymentRail: 'ACH' },
      },
    });
    expect(q.status, q.text).toBe(200);
    const best = RampQuote.parse((q.body as { quotes: unknown[] }).quotes[0]);
    const fee = best.fees?.amount ?? '';
    expect(cmp(fee, '0')).toBe(1);
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: best.quoteId,
      externalId: 'ledger-off-ramp',
    });
    expect(created.status, created.text).toBe(200);
    const id = Transaction.parse(created.body).id ?? '';
    await client.approve('js', id);
    expect((await runRampToEnd(t, id)).status).toBe('COMPLETED');

    const res = await t.get(
      `${pathOf(ledgerStatement)}${toQueryString({
        vaultId: f.treasury.id,
        from: begun.toISOString(),
        to: new Date(t.clock.now().getTime() + 1).toISOString(),
      })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('987654321');
    const statement = LedgerStatementResponse.parse(res.body);
    const lines = statement.results.filter((l) => l.transactionId === id);
    expect(lines.map((l) => [l.kind, l.amount, l.fee])).toEqual([
      ['AMOUNT', neg(sub('300', fee)), '0'],
      ['FEE', '0', fee],
    ]);
    // The balance moved by the 300 as before; the statement reconciles to it.
    const usdc = statement.totals.find((x) => x.asset === 'USDC' && x.chain === 'ETHEREUM');
    expect(cmp(usdc?.closing ?? '', sub(before.amount, '300'))).toBe(0);
    expect(
      cmp(
        add(sub(add(usdc?.opening ?? '', usdc?.amounts ?? ''), usdc?.fees ?? ''), '0'),
        usdc?.closing ?? '',
      ),
    ).toBe(0);
  });
});
