import { addressProblem, sameAddress } from '#contract/addresses.ts';
import { addressChecksumProblem } from '#contract/contact-address.ts';
import { add, cmp, mul, scale, sub, sum } from '#contract/decimal.ts';
import type {
  PaymentCheckCode,
  PaymentCheckError,
  PaymentRowInput,
  PaymentRunOffRamp,
  PaymentRunSimulation,
} from '#contract/payment-runs.ts';

/**
 * A payment run checked before anything is sent: a pure function over the
 * rows and a snapshot of the reference data they name, so 1,000 rows check
 * in milliseconds and the same rows with the same snapshot always give the
 * same answer. Rows are numbered from 1, as a person counts a file's lines.
 */

export interface CheckSnapshot {
  /** The run's sub-organization: every source vault must be in it (null: the organization's). */
  subOrgId: string | null;
  vaults: ReadonlyMap<
    string,
    { subOrgId: string | null; balances: Record<string, Record<string, string>> }
  >;
  contacts: ReadonlyMap<
    string,
    { status?: string; blockChain?: string; address?: string; assetList?: readonly string[] }
  >;
  bankAccounts: ReadonlyMap<string, { status?: string; id?: string; paymentMethod?: string }>;
  /** Assets by `${symbol}:${blockChain}`, with the fractional digits an amount may carry. */
  assets: ReadonlyMap<string, { decimals: number | null }>;
  /** References other runs have paid or are paying (store.ts `paidReferences`). */
  paidReferences: ReadonlySet<string>;
  /** USD per unit by `${symbol}:${blockChain}`; missing when unpriced. */
  prices: ReadonlyMap<string, string>;
  /** One transfer's fee estimate by `${symbol}:${blockChain}` of the row: the fee's asset and amount. */
  fees: ReadonlyMap<string, { asset: string; blockChain: string; amount: string }>;
  /**
   * Each fiat row's off-ramp quote by row number (from 1): what it would pay and cost, or why
   * the provider refused it (below its minimum, a rail that carries no such currency …).
   */
  offRamps: ReadonlyMap<number, OffRampQuoted>;
}

export type OffRampQuoted =
  | { ok: true; quote: Omit<PaymentRunOffRamp, 'row' | 'bankAccountId'> }
  | { ok: false; field: string; message: string };

export interface CheckResult {
  errors: PaymentCheckError[];
  simulation: PaymentRunSimulation;
}

export const assetKey = (asset: string, blockChain: string) => `${asset}:${blockChain}`;

/** The destination a row pays, as one comparable string (addresses by their chain's rule). */
function destinationOf(row: PaymentRowInput): string {
  if (row.kind === 'FIAT') return `bank:${row.bankAccountId ?? ''}`;
  if (row.contactId !== undefined) return `contact:${row.contactId}`;
  return `address:${row.blockChain}:${row.address ?? ''}`;
}

/** "row 5", "rows 412–430", "rows 3, 7–9": consecutive numbers as ranges. */
export function describeRows(rows: readonly number[]): string {
  const parts: string[] = [];
  let start = rows[0];
  let prev = start;
  const flush = () => {
    if (start === undefined || prev === undefined) return;
    parts.push(start === prev ? `${start}` : `${start}–${prev}`);
  };
  for (const n of rows.slice(1)) {
    if (prev !== undefined && n === prev + 1) {
      prev = n;
      continue;
    }
    flush();
    start = n;
    prev = n;
  }
  flush();
  return `${rows.length === 1 ? 'row' : 'rows'} ${parts.join(', ')}`;
}

function rowErrors(
  row: PaymentRowInput,
  number: number,
  snapshot: CheckSnapshot,
): PaymentCheckError[] {
  const errors: PaymentCheckError[] = [];
  const fail = (field: string, code: PaymentCheckCode, message: string) =>
    errors.push({ row: number, field, code, message: `Row ${number}: ${message}` });

  const vault = snapshot.vaults.get(row.sourceVaultId);
  if (!vault) fail('sourceVaultId', 'UNKNOWN_VAULT', `no vault with id "${row.sourceVaultId}"`);
  else if (snapshot.subOrgId !== null && vault.subOrgId !== snapshot.subOrgId)
    fail(
      'sourceVaultId',
      'VAULT_OUTSIDE_RUN',
      `vault "${row.sourceVaultId}" is not in the run's sub-organization`,
    );

  const asset = snapshot.assets.get(assetKey(row.asset, row.blockChain));
  if (!asset)
    fail('asset', 'ASSET_NOT_ON_CHAIN', `${row.asset} is not an asset on ${row.blockChain}`);
  else if (asset.decimals !== null && scale(row.amount) > asset.decimals)
    fail(
      'amount',
      'TOO_MANY_DECIMALS',
      `${row.asset} on ${row.blockChain} takes at most ${asset.decimals} decimal places; ${row.amount} has ${scale(row.amount)}`,
    );

  if (row.kind === 'FIAT') {
    const id = row.bankAccountId ?? '';
    const account = snapshot.bankAccounts.get(id);
    if (!account) fail('bankAccountId', 'UNKNOWN_BANK_ACCOUNT', `no bank account with id "${id}"`);
    else if (account.status !== 'APPROVED')
      fail(
        'bankAccountId',
        'BANK_ACCOUNT_NOT_APPROVED',
        `bank account "${id}" is ${account.status ?? 'not approved'}, not APPROVED`,
      );
    else {
      const quoted = snapshot.offRamps.get(number);
      if (quoted && !quoted.ok)
        fail(quoted.field, 'OFF_RAMP_REFUSED', `the off-ramp cannot be quoted: ${quoted.message}`);
    }
  } else if (row.contactId !== undefined) {
    const contact = snapshot.contacts.get(row.contactId);
    if (!contact) fail('contactId', 'UNKNOWN_CONTACT', `no contact with id "${row.contactId}"`);
    else if (contact.status !== 'APPROVED')
      fail(
        'contactId',
        'CONTACT_NOT_APPROVED',
        `contact "${row.contactId}" is ${contact.status ?? 'not approved'}, not APPROVED`,
      );
    else if (contact.blockChain !== row.blockChain)
      fail(
        'contactId',
        'CONTACT_WRONG_CHAIN',
        `contact "${row.contactId}" is on ${contact.blockChain ?? 'another chain'}, not ${row.blockChain}`,
      );
    else if (
      contact.assetList &&
      contact.assetList.length > 0 &&
      !contact.assetList.includes(row.asset)
    )
      fail(
        'contactId',
        'CONTACT_ASSET_NOT_ALLOWED',
        `contact "${row.contactId}" accepts ${contact.assetList.join(', ')}, not ${row.asset}`,
      );
  } else {
    const address = row.address ?? '';
    const format = addressProblem(row.blockChain, address);
    const checksum = format ? null : addressChecksumProblem(row.blockChain, address);
    if (format) fail('address', 'BAD_ADDRESS', `address is ${format}`);
    else if (checksum) fail('address', 'BAD_CHECKSUM', `address ${checksum}`);
  }

  if (snapshot.paidReferences.has(row.reference))
    fail(
      'reference',
      'REFERENCE_ALREADY_PAID',
      `reference "${row.reference}" is already paid, or being paid, by another run`,
    );
  return errors;
}

/**
 * Checks every row against the snapshot, then simulates the rows without
 * errors in order, per source vault and asset, each crypto row's network fee
 * counted against the vault's balance of the fee's asset: a row whose amount
 * or fee would take the vault below zero does not fit (and is not counted, so
 * a later smaller row may still fit, as it would when paid in order).
 */
export function checkPaymentRun(
  rows: readonly PaymentRowInput[],
  snapshot: CheckSnapshot,
): CheckResult {
  const errors: PaymentCheckError[][] = rows.map((row, i) => rowErrors(row, i + 1, snapshot));

  // Same destination, same amount, same reference: the later rows are the duplicates.
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const key = [destinationOf(row), add(row.amount, '0'), row.reference].join('\u0000');
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i + 1);
      return;
    }
    errors[i]?.push({
      row: i + 1,
      field: 'reference',
      code: 'DUPLICATE_ROW',
      message: `Row ${i + 1}: the same destination, amount and reference as row ${first}`,
    });
  });
  // Typed addresses that differ only in letter case are the same destination on hex chains.
  const byAddress = new Map<string, { row: number; address: string }[]>();
  rows.forEach((row, i) => {
    if (row.kind !== 'CRYPTO' || row.address === undefined) return;
    const key = [row.blockChain, add(row.amount, '0'), row.reference].join('\u0000');
    const list = byAddress.get(key) ?? [];
    const twin = list.find(
      (o) => o.address !== row.address && sameAddress(o.address, row.address ?? ''),
    );
    if (twin)
      errors[i]?.push({
        row: i + 1,
        field: 'reference',
        code: 'DUPLICATE_ROW',
        message: `Row ${i + 1}: the same destination, amount and reference as row ${twin.row}`,
      });
    list.push({ row: i + 1, address: row.address });
    byAddress.set(key, list);
  });

  interface Line {
    vaultId: string;
    asset: string;
    blockChain: string;
    before: string;
    outflow: string;
    /** The network fees the rows paid from this vault pay in this asset. */
    fees: string;
    rowsNotFitting: number[];
    /** Of those, the rows whose amount fits but whose network fee does not. */
    feeShort: Set<number>;
  }
  const lines = new Map<string, Line>();
  const lineOf = (vaultId: string, asset: string, blockChain: string): Line => {
    const key = `${vaultId}\u0000${assetKey(asset, blockChain)}`;
    let line = lines.get(key);
    if (!line) {
      const held = snapshot.vaults.get(vaultId)?.balances[asset]?.[blockChain];
      line = {
        vaultId,
        asset,
        blockChain,
        before: held ?? '0',
        outflow: '0',
        fees: '0',
        rowsNotFitting: [],
        feeShort: new Set(),
      };
      lines.set(key, line);
    }
    return line;
  };
  const spent = (line: Line) => add(line.outflow, line.fees);
  const totals = new Map<string, { asset: string; blockChain: string; amounts: string[] }>();
  const fees = new Map<string, { asset: string; blockChain: string; amounts: string[] }>();
  const offRamps: PaymentRunOffRamp[] = [];
  rows.forEach((row, i) => {
    if ((errors[i]?.length ?? 0) > 0) return;
    const line = lineOf(row.sourceVaultId, row.asset, row.blockChain);
    const k = assetKey(row.asset, row.blockChain);
    // A crypto row's transfer also pays its network fee from the vault, in the chain's coin (a
    // token's) or in the asset itself (the coin's): the sandbox holds both before it signs.
    const fee = row.kind === 'CRYPTO' ? snapshot.fees.get(k) : undefined;
    const feeLine = fee ? lineOf(row.sourceVaultId, fee.asset, fee.blockChain) : undefined;
    const amountFits = cmp(add(spent(line), row.amount), line.before) <= 0;
    const feeFits =
      !fee ||
      !feeLine ||
      cmp(
        add(add(spent(feeLine), fee.amount), feeLine === line ? row.amount : '0'),
        feeLine.before,
      ) <= 0;
    if (!amountFits || !feeFits) {
      const short = amountFits && feeLine ? feeLine : line;
      short.rowsNotFitting.push(i + 1);
      if (amountFits) short.feeShort.add(i + 1);
      return;
    }
    line.outflow = add(line.outflow, row.amount);
    const total = totals.get(k) ?? { asset: row.asset, blockChain: row.blockChain, amounts: [] };
    total.amounts.push(row.amount);
    totals.set(k, total);
    const quoted = row.kind === 'FIAT' ? snapshot.offRamps.get(i + 1) : undefined;
    if (quoted?.ok) {
      // An off-ramp's fee is the provider's, in the asset sold, inside the row's amount.
      offRamps.push({ row: i + 1, bankAccountId: row.bankAccountId ?? '', ...quoted.quote });
      const fk = assetKey(quoted.quote.feeAsset, row.blockChain);
      const f = fees.get(fk) ?? {
        asset: quoted.quote.feeAsset,
        blockChain: row.blockChain,
        amounts: [],
      };
      f.amounts.push(quoted.quote.feeAmount);
      fees.set(fk, f);
      return;
    }
    if (fee && feeLine) {
      feeLine.fees = add(feeLine.fees, fee.amount);
      const fk = assetKey(fee.asset, fee.blockChain);
      const f = fees.get(fk) ?? { asset: fee.asset, blockChain: fee.blockChain, amounts: [] };
      f.amounts.push(fee.amount);
      fees.set(fk, f);
    }
  });

  for (const line of lines.values())
    for (const n of line.rowsNotFitting)
      errors[n - 1]?.push({
        row: n,
        field: 'amount',
        code: 'EXCEEDS_BALANCE',
        message: line.feeShort.has(n)
          ? `Row ${n}: vault "${line.vaultId}" has no ${line.asset} left for its network fee once the rows before it are paid`
          : `Row ${n}: vault "${line.vaultId}" has no ${line.asset} left for it once the rows before it are paid`,
      });

  const usdOf = (asset: string, blockChain: string, amount: string): string | null => {
    const price = snapshot.prices.get(assetKey(asset, blockChain));
    return price === undefined ? null : mul(amount, price);
  };
  const usdSum = (values: (string | null)[]): string | null =>
    values.some((v) => v === null) ? null : sum(values.filter((v): v is string => v !== null));

  const totalList = [...totals.values()].map((t) => ({
    asset: t.asset,
    blockChain: t.blockChain,
    amount: sum(t.amounts),
  }));
  const feeList = [...fees.values()].map((f) => {
    const amount = sum(f.amounts);
    return {
      asset: f.asset,
      blockChain: f.blockChain,
      amount,
      usd: usdOf(f.asset, f.blockChain, amount),
    };
  });

  return {
    errors: errors.flat(),
    simulation: {
      lines: [...lines.values()].map((l) => ({
        vaultId: l.vaultId,
        asset: l.asset,
        blockChain: l.blockChain,
        before: l.before,
        outflow: l.outflow,
        fees: l.fees,
        after: sub(l.before, spent(l)),
        rowsNotFitting: l.rowsNotFitting,
        note:
          l.rowsNotFitting.length > 0
            ? `${describeRows(l.rowsNotFitting)} ${l.rowsNotFitting.length === 1 ? 'exceeds' : 'exceed'} the vault's ${l.asset}`
            : null,
      })),
      totals: totalList,
      totalUsd: usdSum(totalList.map((t) => usdOf(t.asset, t.blockChain, t.amount))),
      fees: feeList,
      feesUsd: usdSum(feeList.map((f) => f.usd)),
      ...(offRamps.length > 0 ? { offRamps } : {}),
    },
  };
}
