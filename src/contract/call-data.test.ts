import { describe, expect, it } from 'vitest';
import { describeContractCall, readCallData } from './call-data.ts';

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

describe('describeContractCall', () => {
  const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
  const SPENDER_2 = '0x1111111111111111111111111111111111110582';
  it('names an unlimited approval of a well-known token, its spender shortened', () => {
    const callData = `0x095ea7b3${pad(SPENDER_2)}${'f'.repeat(64)}`;
    expect(describeContractCall({ callData, toAddress: USDC }, 'ETHEREUM')).toBe(
      'Unlimited USDC approval to 0x1111…0582',
    );
  });
  it("reads a token transfer's amount in the token's own decimals", () => {
    const callData = `0xa9059cbb${pad('0xabcd000000000000000000000000000000001234')}${pad(1_000_000_000n.toString(16))}`;
    expect(describeContractCall({ callData, toAddress: USDC.toLowerCase() }, 'ETHEREUM')).toBe(
      'Transfer of 1,000 USDC to 0xabcd…1234',
    );
  });
  it('names an unknown token by its contract and keeps its amount in smallest units', () => {
    const token = '0x2222222222222222222222222222222222223333';
    const approve = `0x095ea7b3${pad(SPENDER_2)}${pad(1234n.toString(16))}`;
    expect(describeContractCall({ callData: approve, toAddress: token }, 'ETHEREUM')).toBe(
      'Approval of 1,234 smallest units of token 0x2222…3333 to 0x1111…0582',
    );
    const unlimited = `0x095ea7b3${pad(SPENDER_2)}${'f'.repeat(64)}`;
    expect(describeContractCall({ callData: unlimited, toAddress: token }, 'ETHEREUM')).toBe(
      'Unlimited approval of token 0x2222…3333 to 0x1111…0582',
    );
    // The same contract on another chain is not the token it is on Ethereum.
    expect(describeContractCall({ callData: unlimited, toAddress: USDC }, 'POLYGON')).toBe(
      'Unlimited approval of token 0xA0b8…eB48 to 0x1111…0582',
    );
  });
  it('says when an approval is taken back, and when every token of a collection is handed over', () => {
    const revoke = `0x095ea7b3${pad(SPENDER_2)}${pad('0')}`;
    expect(describeContractCall({ callData: revoke, toAddress: USDC }, 'ETHEREUM')).toBe(
      'Revocation of the USDC approval of 0x1111…0582',
    );
    const collection = '0x3333333333333333333333333333333333334444';
    const all = `0xa22cb465${pad(SPENDER_2)}${pad('1')}`;
    expect(describeContractCall({ callData: all, toAddress: collection }, 'ETHEREUM')).toBe(
      'Approval of every token of collection 0x3333…4444 to 0x1111…0582',
    );
  });
  it('says plainly when a call could not be read, and what the other chains call', () => {
    expect(describeContractCall({ callData: '0xdeadbeef', toAddress: SPENDER_2 }, 'ETHEREUM')).toBe(
      'Call of unknown function 0xdeadbeef on 0x1111…0582 (not decoded)',
    );
    expect(describeContractCall({ messageHex: '0xabcd' }, 'SOLANA')).toBe(
      'Raw signature of a message',
    );
    expect(
      describeContractCall(
        { canisterId: 'ryjl3-tyaaa-aaaaa-aaaba-cai', method: 'icrc1_transfer', arg: '' },
        'ICP',
      ),
    ).toBe('Call of icrc1_transfer on canister ryjl3-tyaaa-aaaaa-aaaba-cai');
    expect(describeContractCall(undefined, 'ETHEREUM')).toBeUndefined();
  });
});
