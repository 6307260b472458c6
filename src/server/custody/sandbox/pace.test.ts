import { describe, expect, it } from 'vitest';
import type { Transaction } from '#contract/transaction.ts';
import { slowAfterMs } from './fee-model.ts';
import { isSharedAnswer, shareAnswer } from '../../db/read-cache.ts';
import { pacedPage, pacedTransaction, withPace } from './pace.ts';

const SUBMITTED_AT = '2030-01-01T12:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(SUBMITTED_AT) + ms);

const submitted = (over: Partial<Transaction> = {}): Transaction => ({
  id: 'tx-1',
  status: 'SUBMITTED',
  category: 'TRANSFER',
  blockChain: 'ETHEREUM',
  gasParams: { feeTier: 'LOW' },
  updatedAt: SUBMITTED_AT,
  ...over,
});

describe('withPace', () => {
  it('says when a submitted transaction passes its tier’s usual time, and whether it has', () => {
    const limit = slowAfterMs('ETHEREUM', 'LOW', 'SUBMITTED', 1);
    const slowAfter = at(limit).toISOString();
    expect(withPace(submitted(), at(limit - 1), 1)).toMatchObject({
      slowAfter,
      slowerThanUsual: false,
    });
    expect(withPace(submitted(), at(limit), 1)).toMatchObject({ slowAfter, slowerThanUsual: true });
  });

  it('counts from entering WAITING_CONFIRMATION, with only the confirmations left', () => {
    const limit = slowAfterMs('ETHEREUM', 'HIGH', 'WAITING_CONFIRMATION', 600);
    const tx = submitted({ status: 'WAITING_CONFIRMATION', gasParams: { feeTier: 'HIGH' } });
    expect(withPace(tx, at(limit), 600)).toMatchObject({
      slowAfter: at(limit).toISOString(),
      slowerThanUsual: true,
    });
  });

  it('takes the create’s default tier, HIGH, when none is recorded', () => {
    const { gasParams: _none, ...noTier } = submitted();
    const limit = slowAfterMs('ETHEREUM', 'HIGH', 'SUBMITTED', 1);
    expect(withPace(noTier, at(limit), 1).slowAfter).toBe(at(limit).toISOString());
  });

  it('leaves alone what is not on the chain, ended, a ramp, or on a chain it has no timing for', () => {
    const late = at(24 * 3_600_000);
    for (const over of [
      { status: 'PENDING' },
      { status: 'APPROVED' },
      { status: 'SIGNED' },
      { status: 'COMPLETED' },
      { status: 'FAILED' },
      { category: 'OFF_RAMP' },
      { category: 'RAMP' },
      { blockChain: 'DOGECOIN' },
      { updatedAt: 'not a time' },
    ] as const) {
      const tx = submitted(over);
      expect(withPace(tx, late, 1), JSON.stringify(over)).toEqual(tx);
    }
  });
});

describe('pacedPage', () => {
  const limit = slowAfterMs('ETHEREUM', 'LOW', 'SUBMITTED', 1);
  // As the read cache hands it out: one object every request shares.
  const cachedPage = () => {
    const page = {
      results: [submitted(), submitted({ id: 'tx-2', status: 'COMPLETED' })],
      hasNext: false,
    };
    shareAnswer(page);
    return page;
  };

  it('answers a shared page with one shared answer until a row turns slow, then the turned one', () => {
    const page = cachedPage();
    const early = pacedPage(page, at(0), 1);
    expect(early.results[0]).toMatchObject({ slowerThanUsual: false });
    expect(isSharedAnswer(early)).toBe(true);
    expect(pacedPage(page, at(limit - 1), 1)).toBe(early);

    const late = pacedPage(page, at(limit), 1);
    expect(late.results[0]).toMatchObject({
      slowAfter: at(limit).toISOString(),
      slowerThanUsual: true,
    });
    expect(late.results[1]).toBe(page.results[1]);
    expect(pacedPage(page, at(limit + 60_000), 1)).toBe(late);
    // A clock set back (a test's) is judged again, not answered from later.
    expect(pacedPage(page, at(0), 1).results[0]).toMatchObject({ slowerThanUsual: false });
  });

  it('paces a page the cache does not share anew each time, and leaves it unshared', () => {
    const page = { results: [submitted()], hasNext: false };
    const first = pacedPage(page, at(0), 1);
    expect(pacedPage(page, at(0), 1)).not.toBe(first);
    expect(isSharedAnswer(first)).toBe(false);
  });

  it('keeps a shared transaction’s pace the same way', () => {
    const tx = submitted();
    shareAnswer(tx);
    const early = pacedTransaction(tx, at(1), 1);
    expect(pacedTransaction(tx, at(2), 1)).toBe(early);
    expect(pacedTransaction(tx, at(limit), 1)).toMatchObject({ slowerThanUsual: true });
  });
});
