/**
 * A small seeded random source, so the seed produces the same organization,
 * ids and history shape on every machine (only timestamps follow the clock).
 * mulberry32: not cryptographic, which seed data does not need.
 */
export class SeedRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('SeedRandom.pick: empty list');
    return item;
  }

  /** Picks by weight: `weighted([['A', 3], ['B', 1]])` returns A three times as often as B. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((acc, [, w]) => acc + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries.at(-1);
    if (!last) throw new Error('SeedRandom.weighted: empty list');
    return last[0];
  }

  /** `count` characters drawn from `alphabet`. */
  chars(alphabet: string, count: number): string {
    let out = '';
    for (let i = 0; i < count; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  hex(bytes: number): string {
    return this.chars('0123456789abcdef', bytes * 2);
  }

  digits(count: number): string {
    return this.chars('0123456789', count);
  }

  /** A version-4-shaped UUID from this source. */
  uuid(): string {
    const h = this.hex(16).split('');
    h[12] = '4';
    // eslint-disable-next-line no-restricted-syntax -- a hex digit of a UUID's variant
    h[16] = '89ab'[Number.parseInt(h[16] ?? '0', 16) % 4] ?? '8';
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /**
   * A positive decimal string with an integer part in [minInt, maxInt] and up
   * to `fractionDigits` fractional digits. Built as text, so no float is ever
   * involved in an amount.
   */
  amount(minInt: number, maxInt: number, fractionDigits: number): string {
    const intPart = String(this.int(minInt, maxInt));
    const frac =
      fractionDigits > 0 ? this.digits(this.int(0, fractionDigits)).replace(/0+$/, '') : '';
    const text = frac ? `${intPart}.${frac}` : intPart;
    // A zero draw is rare; any positive value will do instead.
    return /^0(\.0*)?$/.test(text) ? '1' : text;
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A plausible address for a chain (shape only; nothing is derived from a key). */
export function fakeAddress(rng: SeedRandom, chainKind: string): string {
  switch (chainKind) {
    case 'EVM':
      return `0x${rng.hex(20)}`;
    case 'UTXO':
      return `bc1q${rng.chars(BECH32, 38)}`;
    case 'SOLANA':
      return rng.chars(BASE58, 44);
    case 'TRON':
      return `T${rng.chars(BASE58, 33)}`;
    case 'ICP':
      return rng.hex(32);
    default:
      return rng.hex(20);
  }
}

/** A plausible transaction hash for a chain. */
export function fakeTxHash(rng: SeedRandom, chainKind: string): string {
  switch (chainKind) {
    case 'EVM':
      return `0x${rng.hex(32)}`;
    case 'SOLANA':
      return rng.chars(BASE58, 88);
    default:
      return rng.hex(32);
  }
}
