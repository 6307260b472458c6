import { useId, useState, type FormEvent } from 'react';
import { TRANSACTION_CATEGORIES, TRANSACTION_STATUSES } from '../../../../contract/enums.ts';
import { DayInput } from '../../../components/day-input.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { endOfUtcDay, startOfUtcDay, utcDayOf } from '../../../lib/dates.ts';
import { humanize } from '../../../lib/labels.ts';
import type { TransactionSearchFilters } from '../search.ts';

export interface FilterOption {
  value: string;
  label: string;
}

/** Keeps the URL's current value selectable even when the option list does not (yet) hold it. */
function withCurrent(options: FilterOption[], current: string | undefined): FilterOption[] {
  if (!current || options.some((o) => o.value === current)) return options;
  return [...options, { value: current, label: current }];
}

/**
 * Selects and dates apply as soon as they change; External ID applies on
 * "Apply filters" (or Enter), so typing does not fire a request per key.
 */
export function TransactionFilters({
  value,
  vaultOptions,
  assetOptions,
  onChange,
  onClear,
}: {
  value: TransactionSearchFilters;
  vaultOptions: FilterOption[];
  assetOptions: FilterOption[];
  onChange: (patch: Partial<TransactionSearchFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;

  const [externalIdDraft, setExternalIdDraft] = useState(value.externalId ?? '');
  const [externalIdCommitted, setExternalIdCommitted] = useState(value.externalId);
  if (value.externalId !== externalIdCommitted) {
    setExternalIdCommitted(value.externalId);
    setExternalIdDraft(value.externalId ?? '');
  }

  const commitExternalId = () => {
    const trimmed = externalIdDraft.trim();
    const next = trimmed === '' ? undefined : trimmed;
    if (next !== value.externalId) onChange({ externalId: next });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commitExternalId();
  };

  const selectChange = (key: 'status' | 'category' | 'asset' | 'vaultId') => (raw: string) =>
    onChange({ [key]: raw === '' ? undefined : raw });

  const anyActive = Object.values(value).some((v) => v !== undefined);

  return (
    <form
      role="search"
      aria-label="Transaction filters"
      onSubmit={onSubmit}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <Field id={fieldId('status')} label="Status">
        <Select
          id={fieldId('status')}
          value={value.status ?? ''}
          onChange={(e) => selectChange('status')(e.target.value)}
        >
          <option value="">All statuses</option>
          {TRANSACTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {humanize(s)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={fieldId('category')} label="Category">
        <Select
          id={fieldId('category')}
          value={value.category ?? ''}
          onChange={(e) => selectChange('category')(e.target.value)}
        >
          <option value="">All categories</option>
          {TRANSACTION_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {humanize(c)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={fieldId('asset')} label="Asset">
        <Select
          id={fieldId('asset')}
          value={value.asset ?? ''}
          onChange={(e) => selectChange('asset')(e.target.value)}
        >
          <option value="">All assets</option>
          {withCurrent(assetOptions, value.asset).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={fieldId('vault')} label="Vault">
        <Select
          id={fieldId('vault')}
          value={value.vaultId ?? ''}
          onChange={(e) => selectChange('vaultId')(e.target.value)}
        >
          <option value="">All vaults</option>
          {withCurrent(vaultOptions, value.vaultId).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={fieldId('from')} label="From" hint="UTC day, inclusive">
        <DayInput
          id={fieldId('from')}
          aria-describedby={`${fieldId('from')}-hint`}
          value={utcDayOf(value.createdAtGte)}
          max={utcDayOf(value.createdAtLte) || undefined}
          onDayChange={(day) => onChange({ createdAtGte: day ? startOfUtcDay(day) : undefined })}
        />
      </Field>
      <Field id={fieldId('to')} label="To" hint="UTC day, inclusive">
        <DayInput
          id={fieldId('to')}
          aria-describedby={`${fieldId('to')}-hint`}
          value={utcDayOf(value.createdAtLte)}
          min={utcDayOf(value.createdAtGte) || undefined}
          onDayChange={(day) => onChange({ createdAtLte: day ? endOfUtcDay(day) : undefined })}
        />
      </Field>
      <div className="col-span-full flex flex-wrap items-end gap-2">
        <Field id={fieldId('external-id')} label="External ID" className="w-full sm:w-72">
          <Input
            id={fieldId('external-id')}
            value={externalIdDraft}
            onChange={(e) => setExternalIdDraft(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
        {anyActive ? (
          <Button variant="ghost" onClick={onClear}>
            Reset filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
