import { describe, expect, it } from 'vitest';
import { readCallData } from './call-data.ts';

const pad = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
const RECIPIENT = '0x1111111111111111111111111111111111111111';
const SPENDER = '0x000000000022d473030f116ddee9f6b43ac78ba3';

describe('readCallData', () => {
  it('decodes an ERC-20 transfer into its recipient and exact amount', () => {
    const data = `0xa9059cbb${pad(RECIPIENT)}${pad(1_500_000n.toString(16))}`;
    expect(readCallData(data)).toEqual({
      kind: 'decoded',
      call: {
        name: 'transfer',
        signature: 'transfer(address,uint256)',
        args: [
          { name: 'to', type: 'address', value: RECIPIENT },
          { name: 'amount', type: 'uint256', value: '1500000' },
        ],
        unlimited: false,
      },
    });
  });

  it('keeps amounts beyond a float exact', () => {
    const big = 123456789012345678901234567890n;
    const data = `a9059cbb${pad(RECIPIENT)}${pad(big.toString(16))}`;
    const reading = readCallData(data);
    expect(reading.kind === 'decoded' && reading.call.args[1]?.value).toBe(big.toString());
  });

  it('flags an approval of every token the vault will ever hold', () => {
    const data = `0x095ea7b3${pad(SPENDER)}${'f'.repeat(64)}`;
    const reading = readCallData(data);
    expect(reading.kind).toBe('decoded');
    expect(reading.kind === 'decoded' && reading.call).toMatchObject({
      name: 'approve',
      unlimited: true,
    });
  });

  it('decodes transferFrom with both addresses', () => {
    const data = `0x23b872dd${pad(SPENDER)}${pad(RECIPIENT)}${pad('64')}`;
    const reading = readCallData(data);
    expect(reading.kind === 'decoded' && reading.call.args.map((a) => a.value)).toEqual([
      SPENDER,
      RECIPIENT,
      '100',
    ]);
  });

  it('leaves what it cannot read as raw, saying why', () => {
    expect(readCallData('0xdeadbeef00')).toMatchObject({
      kind: 'raw',
      selector: '0xdeadbeef',
      reason: expect.stringContaining('not one this console knows'),
    });
    expect(readCallData('0xa9059cbb00')).toMatchObject({
      kind: 'raw',
      reason: expect.stringContaining('arguments are not the 2 it takes'),
    });
    // An "address" word with bits above its 20 bytes is not an address.
    expect(readCallData(`0xa9059cbb${'f'.repeat(64)}${pad('1')}`)).toMatchObject({
      kind: 'raw',
      reason: expect.stringContaining('to is not a valid address'),
    });
    expect(readCallData('0x12')).toMatchObject({ kind: 'raw', selector: null });
    expect(readCallData('zz')).toMatchObject({ kind: 'raw', selector: null });
  });
});
