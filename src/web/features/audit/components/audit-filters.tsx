import { AUDIT_ACTION_LABELS, auditActionLabel } from '#contract/audit-actions.ts';
import { AUDIT_OUTCOMES } from '#contract/auth.ts';
import * as ListFilter from '../../../components/list-filters.tsx';
import { humanize } from '../../../lib/labels.ts';
import type { AuditSearchFilters } from '../search.ts';

const TEXT_FIELDS = [{ name: 'entityId', label: 'Entity ID' }] as const;
const TYPED = TEXT_FIELDS.map((field) => field.name);

const OUTCOME_OPTIONS = ListFilter.enumOptions(AUDIT_OUTCOMES, humanize);
const ACTION_OPTIONS = ListFilter.enumOptions(Object.keys(AUDIT_ACTION_LABELS), auditActionLabel);

/**
 * Action, actor, outcome and dates apply as they change; Entity ID on "Apply
 * filters" (or Enter), so typing does not fire a request per key.
 */
export function AuditFilters({
  actorOptions,
  ...filters
}: ListFilter.Props<AuditSearchFilters> & {
  /** Staff members by name; an actor id from the URL that is not among them stays selectable. */
  actorOptions: ListFilter.Option[];
}) {
  const typed = ListFilter.useTextDrafts(filters.value, TYPED);
  return (
    <ListFilter.Form
      label="Audit log filters"
      onApply={() => typed.apply(filters.onChange)}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end"
    >
      {TEXT_FIELDS.map(({ name, label }) => (
        <ListFilter.Text
          key={name}
          name={name}
          label={label}
          value={typed.draft(name)}
          onChange={(text) => typed.setDraft(name, text)}
        />
      ))}
      <ListFilter.Selects
        {...filters}
        selects={[
          { name: 'action', label: 'Action', allLabel: 'All actions', options: ACTION_OPTIONS },
          { name: 'actorId', label: 'Actor', allLabel: 'All actors', options: actorOptions },
          { name: 'outcome', label: 'Outcome', allLabel: 'All outcomes', options: OUTCOME_OPTIONS },
        ]}
      />
      <ListFilter.DayRange {...filters} labels={['From', 'To']} range={['atGte', 'atLte']} />
      <div className="flex gap-2">
        <ListFilter.Actions {...filters} />
      </div>
    </ListFilter.Form>
  );
}
