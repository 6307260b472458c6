import { formatUsd } from '#contract/decimal-format.ts';

/** " (≈ 1,234.50 USD)" after an amount, to the cent, as the API values it; nothing when it does not. */
export function UsdEquivalent({ value }: { value: string | null | undefined }) {
  return value ? (
    <span className="font-normal text-slate-700"> (≈ {formatUsd(value)} USD)</span>
  ) : null;
}
