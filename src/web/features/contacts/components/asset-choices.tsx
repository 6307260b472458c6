import { useQuery } from '@tanstack/react-query';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { Choice } from '../../../components/ui/input.tsx';

/**
 * The assets of a chain as checkboxes: what a contact may receive. None
 * ticked means any asset of the chain. Controlled: `value` is the ticked
 * symbols, in the order the chain lists them.
 */
export function AssetChoices({
  id,
  blockChain,
  value,
  onChange,
  legend,
  describedBy,
}: {
  id: string;
  blockChain: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  legend: string;
  describedBy?: string | undefined;
}) {
  const assets = useQuery(referenceQueries.assets());
  const symbols = (assets.data ?? [])
    .filter((a) => a.blockChain === blockChain && a.symbol)
    .map((a) => ({ symbol: a.symbol as string, name: a.name }));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={describedBy}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {!blockChain ? (
        <p className="text-sm text-slate-700">Choose a chain first.</p>
      ) : assets.isPending ? (
        <p className="text-sm text-slate-700">Loading the chain’s assets…</p>
      ) : (
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {symbols.map(({ symbol, name }) => (
            <label key={symbol} className="flex items-center gap-2 text-sm text-slate-900">
              <Choice
                type="checkbox"
                id={`${id}-${symbol}`}
                className="size-4 accent-blue-700"
                checked={value.includes(symbol)}
                onChange={(e) =>
                  onChange(
                    symbols
                      .map((s) => s.symbol)
                      .filter((s) => (s === symbol ? e.target.checked : value.includes(s))),
                  )
                }
              />
              {name ? `${symbol} (${name})` : symbol}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
