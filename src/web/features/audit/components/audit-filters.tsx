import { useId, useState, type FormEvent } from 'react';
import { AUDIT_OUTCOMES } from '../../../../contract/auth.ts';
import { DayInput } from '../../../components/day-input.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
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

export interface ActorOption {
  value: string;
  label: string;
}

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
  actorOptions: ActorOption[];
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
      <Field id={fieldId('actor')} label="Actor">
        <Select
          id={fieldId('actor')}
          value={value.actorId ?? ''}
          onChange={(e) => onChange({ actorId: e.target.value || undefined })}
        >
          <option value="">All actors</option>
          {actorOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
          {value.actorId && !actorOptions.some((o) => o.value === value.actorId) ? (
            <option value={value.actorId}>{value.actorId}</option>
          ) : null}
        </Select>
      </Field>
      <Field id={fieldId('outcome')} label="Outcome">
        <Select
          id={fieldId('outcome')}
          value={value.outcome ?? ''}
          onChange={(e) =>
            onChange({
              outcome: (e.target.value || undefined) as AuditSearchFilters['outcome'],
            })
          }
        >
          <option value="">All outcomes</option>
          {AUDIT_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {humanize(o)}
            </option>
          ))}
        </Select>
      </Field>
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
