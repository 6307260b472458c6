import { useId, useState, type FormEvent } from 'react';
import { TRANSACTION_CATEGORIES, TRANSACTION_STATUSES } from '../../../../contract/enums.ts';
import { DayInput } from '../../../components/day-input.tsx';
import {
  SelectFilter,
  enumOptions,
  type FilterOption,
} from '../../../components/select-filter.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { endOfUtcDay, startOfUtcDay, utcDayOf } from '../../../lib/dates.ts';
import { humanize } from '../../../lib/labels.ts';
import type { TransactionSearchFilters } from '../search.ts';

const STATUS_OPTIONS = enumOptions(TRANSACTION_STATUSES, humanize);
const CATEGORY_OPTIONS = enumOptions(TRANSACTION_CATEGORIES, humanize);

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

  const anyActive = Object.values(value).some((v) => v !== undefined);

  return (
    <form
      role="search"
      aria-label="Transaction filters"
      onSubmit={onSubmit}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <SelectFilter
        id={fieldId('status')}
        label="Status"
        allLabel="All statuses"
        value={value.status}
        options={STATUS_OPTIONS}
        onChange={(status) => onChange({ status })}
      />
      <SelectFilter
        id={fieldId('category')}
        label="Category"
        allLabel="All categories"
        value={value.category}
        options={CATEGORY_OPTIONS}
        onChange={(category) => onChange({ category })}
      />
      <SelectFilter
        id={fieldId('asset')}
        label="Asset"
        allLabel="All assets"
        value={value.asset}
        options={assetOptions}
        onChange={(asset) => onChange({ asset })}
      />
      <SelectFilter
        id={fieldId('vault')}
        label="Vault"
        allLabel="All vaults"
        value={value.vaultId}
        options={vaultOptions}
        onChange={(vaultId) => onChange({ vaultId })}
      />
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
