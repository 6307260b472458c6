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
