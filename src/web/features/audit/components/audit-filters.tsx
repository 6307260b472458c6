import { useId, useState, type FormEvent } from 'react';
import { AUDIT_OUTCOMES } from '../../../../contract/auth.ts';
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
import type { AuditSearchFilters } from '../search.ts';

type TextKey = 'action' | 'entityId';
const TEXT_FIELDS: Array<{ key: TextKey; label: string }> = [
  { key: 'action', label: 'Action' },
  { key: 'entityId', label: 'Entity ID' },
];

function textDrafts(value: AuditSearchFilters): Record<TextKey, string> {
  return { action: value.action ?? '', entityId: value.entityId ?? '' };
}

const OUTCOME_OPTIONS = enumOptions(AUDIT_OUTCOMES, humanize);

/**
 * Outcome and dates apply as they change; the text filters on "Apply
 * filters" (or Enter), so typing does not fire a request per key.
 */
export function AuditFilters({
  value,
  actorOptions,
  onChange,
  onClear,
}: {
  value: AuditSearchFilters;
  /** Staff members by name; an actor id from the URL that is not among them stays selectable. */
  actorOptions: FilterOption[];
  onChange: (patch: Partial<AuditSearchFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const [drafts, setDrafts] = useState(() => textDrafts(value));
  const [committed, setCommitted] = useState(value);
  // The URL changed under us (Reset, Back): show what it now says.
  if (value !== committed) {
    setCommitted(value);
    setDrafts(textDrafts(value));
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const patch: Partial<AuditSearchFilters> = {};
    for (const { key } of TEXT_FIELDS) {
      const next = drafts[key].trim() || undefined;
      if (next !== value[key]) patch[key] = next;
    }
    if (Object.keys(patch).length > 0) onChange(patch);
  };

  const anyActive = Object.values(value).some((v) => v !== undefined);

  return (
    <form
      role="search"
      aria-label="Audit log filters"
      onSubmit={onSubmit}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      {TEXT_FIELDS.map(({ key, label }) => (
        <Field key={key} id={fieldId(key)} label={label}>
          <Input
            id={fieldId(key)}
            value={drafts[key]}
            onChange={(e) => setDrafts((d) => ({ ...d, [key]: e.target.value }))}
            spellCheck={false}
            autoComplete="off"
          />
        </Field>
      ))}
      <SelectFilter
        id={fieldId('actor')}
        label="Actor"
        allLabel="All actors"
        value={value.actorId}
        options={actorOptions}
        onChange={(actorId) => onChange({ actorId })}
      />
      <SelectFilter
        id={fieldId('outcome')}
        label="Outcome"
        allLabel="All outcomes"
        value={value.outcome}
        options={OUTCOME_OPTIONS}
        onChange={(outcome) => onChange({ outcome })}
      />
      <Field id={fieldId('from')} label="From (UTC day)">
        <DayInput
          id={fieldId('from')}
          value={utcDayOf(value.atGte)}
          onDayChange={(day) => onChange({ atGte: day ? startOfUtcDay(day) : undefined })}
        />
      </Field>
      <Field id={fieldId('to')} label="To (UTC day)">
        <DayInput
          id={fieldId('to')}
          value={utcDayOf(value.atLte)}
          onDayChange={(day) => onChange({ atLte: day ? endOfUtcDay(day) : undefined })}
        />
      </Field>
      <div className="flex gap-2">
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
