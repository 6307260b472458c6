import { describe, expect, it } from 'vitest';
import { callMovement, contractCallUsd, tokenAmount, valueContractCall } from './call-value.ts';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const word = (hex: string) => hex.padStart(64, '0');
const address = (hex: string) => word(hex.replace(/^0x/, '').toLowerCase());
const uint = (value: bigint) => word(value.toString(16));
const MAX = (1n << 256n) - 1n;
const payee = '0x1111111111111111111111111111111111111111';

const transfer = (units: bigint) => `0xa9059cbb${address(payee)}${uint(units)}`;
const approve = (units: bigint) => `0x095ea7b3${address(payee)}${uint(units)}`;
const transferFrom = (units: bigint) =>
  `0x23b872dd${address(payee)}${address(payee)}${uint(units)}`;

describe('callMovement', () => {
  it('reads the token amount of transfer, transferFrom and a limited approve', () => {
    for (const callData of [transfer(10n ** 12n), transferFrom(10n ** 12n), approve(10n ** 12n)])
      expect(callMovement({ callData, toAddress: USDC })).toEqual({
        kind: 'token',
        contract: USDC.toLowerCase(),
        units: '1000000000000',
      });
  });

  it('cannot value an unlimited approval, an unknown function, or a call without its contract', () => {
    expect(callMovement({ callData: approve(MAX), toAddress: USDC }).kind).toBe('unvalued');
    expect(callMovement({ callData: '0xdeadbeef', toAddress: USDC }).kind).toBe('unvalued');
    expect(callMovement({ callData: transfer(5n) }).kind).toBe('unvalued');
    // setApprovalForAll hands over every token of a collection: no amount to value.
    expect(
      callMovement({ callData: `0xa22cb465${address(payee)}${uint(1n)}`, toAddress: USDC }).kind,
    ).toBe('unvalued');
  });

  it("cannot value another chain's call format", () => {
    expect(callMovement({ messageHex: '0xabcd' }).kind).toBe('unvalued');
    expect(callMovement({ method: 'transfer', params: { amount: '1' } }).kind).toBe('unvalued');
    expect(callMovement({ canisterId: 'ryjl3', method: 'transfer', arg: '' }).kind).toBe(
      'unvalued',
    );
  });

  it('moves nothing without data, or when an allowance is lowered', () => {
    expect(callMovement(undefined)).toEqual({ kind: 'none' });
    expect(
      callMovement({ callData: `0xa457c2d7${address(payee)}${uint(5n)}`, toAddress: USDC }),
    ).toEqual({ kind: 'none' });
  });
});

describe('tokenAmount', () => {
  it('shifts smallest units by the decimals, exactly', () => {
    expect(tokenAmount('1000000000000', 6)).toBe('1000000');
    expect(tokenAmount('1', 18)).toBe('0.000000000000000001');
    expect(tokenAmount('1500000', 6)).toBe('1.5');
    expect(tokenAmount(MAX.toString(), 6)).toBe(
      '115792089237316195423570985008687907853269984665640564039457584007913129.639935',
    );
    expect(tokenAmount('42', 0)).toBe('42');
  });
});

describe('contractCallUsd', () => {
  const token = { kind: 'token', contract: USDC, units: '1' } as const;
  it('adds the token amount to the native amount', () => {
    expect(contractCallUsd('0', token, '1000000')).toBe('1000000');
    expect(contractCallUsd('30', token, '10')).toBe('40');
    expect(contractCallUsd('30', { kind: 'none' }, null)).toBe('30');
  });

  it('is unpriced when any part is', () => {
    expect(contractCallUsd('0', token, null)).toBeNull();
    expect(contractCallUsd(null, { kind: 'none' }, null)).toBeNull();
    expect(contractCallUsd('0', { kind: 'unvalued', reason: 'x' }, '0')).toBeNull();
  });
});

describe('valueContractCall', () => {
  const pricing = {
    token: (contract: string) =>
      Promise.resolve(contract === USDC.toLowerCase() ? { asset: 'USDC', decimals: 6 } : null),
    usd: (asset: string, amount: string) => Promise.resolve(asset === 'USDC' ? amount : null),
  };

  it('prices the token amount on a known contract', async () => {
    const data = { callData: transfer(10n ** 12n), toAddress: USDC };
    expect(await valueContractCall('0', data, pricing)).toBe('1000000');
    expect(await valueContractCall('12.5', data, pricing)).toBe('1000012.5');
  });

  it('is unpriced on an unknown contract or for a call it cannot read', async () => {
    const other = '0x2222222222222222222222222222222222222222';
    expect(
      await valueContractCall('0', { callData: transfer(1n), toAddress: other }, pricing),
    ).toBe(null);
    expect(
      await valueContractCall('0', { callData: approve(MAX), toAddress: USDC }, pricing),
    ).toBeNull();
    expect(await valueContractCall('3', undefined, pricing)).toBe('3');
  });
});
