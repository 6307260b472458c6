/**
 * Reading an EVM contract call's data as a person checks it before approving:
 * the well-known token functions (ERC-20 transfer, approve, transferFrom,
 * allowance changes; ERC-721/1155 setApprovalForAll) decoded into their
 * arguments, anything else left as raw hex for the approver to treat with
 * care. Amounts stay exact: a uint256 becomes a decimal string of the token's
 * smallest units (BigInt, never a float); the token's decimals are not known
 * from the call itself.
 */

type ArgType = 'address' | 'uint256' | 'bool';

interface KnownFunction {
  name: string;
  args: ReadonlyArray<{ name: string; type: ArgType }>;
}

/** By 4-byte selector (the first bytes of keccak-256 of the signature). */
const KNOWN: Readonly<Record<string, KnownFunction>> = {
  a9059cbb: {
    name: 'transfer',
    args: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  '095ea7b3': {
    name: 'approve',
    args: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  '23b872dd': {
    name: 'transferFrom',
    args: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  '39509351': {
    name: 'increaseAllowance',
    args: [
      { name: 'spender', type: 'address' },
      { name: 'addedValue', type: 'uint256' },
    ],
  },
  a457c2d7: {
    name: 'decreaseAllowance',
    args: [
      { name: 'spender', type: 'address' },
      { name: 'subtractedValue', type: 'uint256' },
    ],
  },
  a22cb465: {
    name: 'setApprovalForAll',
    args: [
      { name: 'operator', type: 'address' },
      { name: 'approved', type: 'bool' },
    ],
  },
};

/** 2^256 − 1: an allowance that never runs out. */
const MAX_UINT256 = (1n << 256n) - 1n;

export interface DecodedArg {
  name: string;
  type: ArgType;
  /** An address as 0x + 40 hex, a uint256 as a decimal string, a bool as "true"/"false". */
  value: string;
}

export interface DecodedCall {
  name: string;
  /** "transfer(address,uint256)". */
  signature: string;
  args: DecodedArg[];
  /** An approval of the largest possible amount: the spender may take every token, for ever. */
  unlimited: boolean;
}

export type CallReading =
  { kind: 'decoded'; call: DecodedCall } | { kind: 'raw'; selector: string | null; reason: string };

function word(hex: string, i: number): string {
  return hex.slice(i * 64, i * 64 + 64);
}

function decodeArg(type: ArgType, w: string): string | null {
  if (type === 'address') return /^0{24}[0-9a-f]{40}$/.test(w) ? `0x${w.slice(24)}` : null;
  if (type === 'bool') return /^0{63}[01]$/.test(w) ? String(w.endsWith('1')) : null;
  return BigInt(`0x${w}`).toString();
}

/** Decodes `callData` (hex, with or without 0x) when its selector is a well-known one. */
export function readCallData(callData: string): CallReading {
  const hex = callData.trim().replace(/^0x/i, '').toLowerCase();
  if (!/^([0-9a-f]{2})*$/.test(hex))
    return { kind: 'raw', selector: null, reason: 'The call data is not hex bytes.' };
  if (hex.length < 8)
    return { kind: 'raw', selector: null, reason: 'The call data has no function selector.' };
  const selector = `0x${hex.slice(0, 8)}`;
  const known = KNOWN[hex.slice(0, 8)];
  if (!known)
    return {
      kind: 'raw',
      selector,
      reason: `The function ${selector} is not one this console knows.`,
    };
  const body = hex.slice(8);
  if (body.length !== known.args.length * 64)
    return {
      kind: 'raw',
      selector,
      reason: `The call names ${known.name}, but its arguments are not the ${known.args.length} it takes.`,
    };
  const args: DecodedArg[] = [];
  for (const [i, arg] of known.args.entries()) {
    const value = decodeArg(arg.type, word(body, i));
    if (value === null)
      return {
        kind: 'raw',
        selector,
        reason: `The call names ${known.name}, but its ${arg.name} is not a valid ${arg.type}.`,
      };
    args.push({ ...arg, value });
  }
  const amount = args.find((a) => a.type === 'uint256');
  const unlimited =
    (known.name === 'approve' || known.name === 'increaseAllowance') &&
    amount !== undefined &&
    BigInt(amount.value) === MAX_UINT256;
  return {
    kind: 'decoded',
    call: {
      name: known.name,
      signature: `${known.name}(${known.args.map((a) => a.type).join(',')})`,
      args,
      unlimited,
    },
  };
}

/**
 * Well-known token contracts, by chain and lowercase address: enough to say
 * "1,000 USDC" rather than "1000000000 smallest units". A contract not here
 * is named by its address, and its amounts stay in smallest units (the call
 * does not carry the token's decimals).
 */
const KNOWN_TOKENS: Readonly<Record<string, Readonly<Record<string, KnownToken>>>> = {
  ETHEREUM: {
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48': { symbol: 'USDC', decimals: 6 },
    '0xdac17f958d2ee523a2206206994597c13d831ec7': { symbol: 'USDT', decimals: 6 },
    '0x6b175474e89094c44da98b954eedeac495271d0f': { symbol: 'DAI', decimals: 18 },
    '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': { symbol: 'WETH', decimals: 18 },
  },
  POLYGON: {
    '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359': { symbol: 'USDC', decimals: 6 },
  },
  BASE: {
    '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913': { symbol: 'USDC', decimals: 6 },
  },
};

interface KnownToken {
  symbol: string;
  decimals: number;
}

/** "0x1111…0582": the first and last characters a person compares. */
function short(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** "1,234,567.5": digits grouped by thousands, from a decimal string (never a float). */
function grouped(decimal: string): string {
  const [whole = '0', fraction] = decimal.split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${withCommas}.${fraction}` : withCommas;
}

/** Smallest units to the token's decimal string: "1500000" with 6 decimals is "1.5". */
function fromUnits(units: string, decimals: number): string {
  if (decimals === 0) return units;
  const padded = units.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const fraction = padded.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/**
 * One line saying what a contract call does, as every list and the inbox
 * show it ("Unlimited USDC approval to 0x1111…0582", "Transfer of 1,000 USDC
 * to 0xabcd…1234"), so that a dangerous call never reads as a harmless one
 * of 0. `data` is the call as sent (EVM `callData` and `toAddress`, an
 * Internet Computer canister call, a raw message, or a method with
 * parameters); undefined when there is none to describe.
 */
export function describeContractCall(
  data: Readonly<Record<string, unknown>> | null | undefined,
  blockChain: string | null | undefined,
): string | undefined {
  if (!data) return undefined;
  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : undefined);
  const callData = text('callData');
  const target = text('toAddress');
  if (callData !== undefined) return describeEvmCall(callData, target, blockChain ?? '');
  const method = text('method');
  const canister = text('canisterId');
  if (canister !== undefined) return `Call of ${method ?? 'a method'} on canister ${canister}`;
  if (text('messageHex') !== undefined) return 'Raw signature of a message';
  if (method !== undefined) return `Call of ${method}`;
  return undefined;
}

function describeEvmCall(callData: string, target: string | undefined, chain: string): string {
  const on = target ? ` on ${short(target)}` : '';
  const reading = readCallData(callData);
  if (reading.kind === 'raw')
    return reading.selector
      ? `Call of unknown function ${reading.selector}${on} (not decoded)`
      : `Contract call${on} (not decoded)`;
  const { call } = reading;
  const arg = (name: string) => call.args.find((a) => a.name === name)?.value ?? '';
  const token = target ? KNOWN_TOKENS[chain]?.[target.toLowerCase()] : undefined;
  const tokenName = token?.symbol ?? (target ? `token ${short(target)}` : 'the token');
  const amount = (units: string) =>
    token
      ? `${grouped(fromUnits(units, token.decimals))} ${token.symbol}`
      : `${grouped(units)} smallest units of ${tokenName}`;
  switch (call.name) {
    case 'approve':
    case 'increaseAllowance': {
      const spender = short(arg('spender'));
      const units = arg(call.name === 'approve' ? 'amount' : 'addedValue');
      if (call.unlimited)
        return token
          ? `Unlimited ${token.symbol} approval to ${spender}`
          : `Unlimited approval of ${tokenName} to ${spender}`;
      if (call.name === 'approve')
        return units === '0'
          ? `Revocation of the ${tokenName} approval of ${spender}`
          : `Approval of ${amount(units)} to ${spender}`;
      return `Allowance of ${spender} raised by ${amount(units)}`;
    }
    case 'decreaseAllowance':
      return `Allowance of ${short(arg('spender'))} lowered by ${amount(arg('subtractedValue'))}`;
    case 'transfer':
      return `Transfer of ${amount(arg('amount'))} to ${short(arg('to'))}`;
    case 'transferFrom':
      return `Transfer of ${amount(arg('amount'))} from ${short(arg('from'))} to ${short(arg('to'))}`;
    default: {
      const collection = target ? `collection ${short(target)}` : 'the collection';
      const operator = short(arg('operator'));
      return arg('approved') === 'true'
        ? `Approval of every token of ${collection} to ${operator}`
        : `Revocation of the approval of ${operator} for every token of ${collection}`;
    }
  }
}
