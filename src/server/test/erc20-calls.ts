/**
 * ERC-20 call data as a client sends it in a contract call's `data.callData`,
 * for the tests of how a contract call is valued (capabilities/policies/call-value.ts).
 */

/** USDC's contract on Ethereum, as the sandbox's catalogue knows it. */
export const USDC_ETHEREUM = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
/** 2^256 − 1: an allowance that never runs out. */
export const UNLIMITED = (1n << 256n) - 1n;
const PAYEE = '1111111111111111111111111111111111111111';
const word = (hex: string) => hex.padStart(64, '0');

export const erc20 = {
  transfer: (units: bigint) => `0xa9059cbb${word(PAYEE)}${word(units.toString(16))}`,
  approve: (units: bigint) => `0x095ea7b3${word(PAYEE)}${word(units.toString(16))}`,
};
