import { useWatch } from 'react-hook-form';
import {
  ACTOR_KINDS,
  DESTINATION_KINDS,
  RULE_CATEGORIES,
  ruleCategoryLabel,
} from '#contract/policies.ts';
import { TextField, type BoundForm } from '../../../components/bound-fields.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { humanize } from '../../../lib/labels.ts';
import type { PolicyForm } from '../policy-form.ts';
import { CheckboxGroup, type CheckboxOption } from './checkbox-group.tsx';
import { OutcomeFields } from './outcome-fields.tsx';

const options = (values: readonly string[]) =>
  values.map((value) => ({ value, label: humanize(value) }));
/** The categories a person sees on transactions, each saying which of the API's it covers. */
const CATEGORY_OPTIONS: CheckboxOption[] = RULE_CATEGORIES.map(({ value, label, description }) => ({
  value,
  label,
  description,
}));

/**
 * The categories offered for a rule: the ones above, and any older, narrower
 * value a stored rule still names (TOKEN_TRANSFER), shown as it stands so it
 * can be kept or unticked; never offered to a rule without it.
 */
function categoryOptions(chosen: readonly string[]): CheckboxOption[] {
  const older = chosen.filter((value) => !CATEGORY_OPTIONS.some((o) => o.value === value));
  return [
    ...CATEGORY_OPTIONS,
    ...older.map((value) => {
      const wider = RULE_CATEGORIES.find((c) => (c.covers as readonly string[]).includes(value));
      return {
        value,
        label: ruleCategoryLabel(value),
        description: `An older category: it matches only what the custody API itself labels so.${wider ? ` ${wider.label} covers these too.` : ''}`,
      };
    }),
  ];
}
const DESTINATION_OPTIONS = options(DESTINATION_KINDS);
const INITIATOR_OPTIONS = ACTOR_KINDS.map((value) => ({
  value,
  label: value === 'api_client' ? 'API client' : humanize(value),
}));

export type RuleMove = 'up' | 'down' | 'remove';

/**
 * One rule of the editor: its name, what it matches (every condition given
 * must hold; a condition left empty matches everything), its outcome, and
 * its place in the order. Each control's id is stable by the rule's key, so
 * focus can follow a moved rule.
 */
export function RuleFields({
  bound,
  index,
  count,
  ruleKey,
  subOrgs,
  members,
  onMove,
}: {
  bound: BoundForm<PolicyForm>;
  index: number;
  count: number;
  ruleKey: string;
  subOrgs: CheckboxOption[];
  members: CheckboxOption[];
  onMove: (move: RuleMove) => void;
}) {
  const { form, fieldId } = bound;
  const prefix = `rules.${index}` as const;
  const name = useWatch({ control: form.control, name: `${prefix}.name` });
  const categories = useWatch({ control: form.control, name: `${prefix}.match.categories` });
  const position = index + 1;
  const headingId = fieldId(`rule-${ruleKey}`);
  const group = (key: 'categories' | 'destinationKinds' | 'initiatorKinds' | 'subOrgIds') => ({
    control: form.control,
    name: `${prefix}.match.${key}` as const,
    id: fieldId(`${prefix}.match.${key}`),
  });
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-md border border-slate-300 p-3"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} tabIndex={-1} className="text-base font-semibold text-slate-900">
          Rule {position}
          {name ? `: ${name}` : ''}
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            id={`${headingId}-up`}
            disabled={index === 0}
            onClick={() => onMove('up')}
          >
            Move up<span className="sr-only"> rule {position}</span>
          </Button>
          <Button
            size="sm"
            id={`${headingId}-down`}
            disabled={index === count - 1}
            onClick={() => onMove('down')}
          >
            Move down<span className="sr-only"> rule {position}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onMove('remove')}>
            Remove<span className="sr-only"> rule {position}</span>
          </Button>
        </div>
      </div>
      <TextField {...bound} name={`${prefix}.name`} label="Rule name" maxChars={80} />
      <fieldset className="flex min-w-0 flex-col gap-3">
        <legend className="text-sm font-semibold text-slate-900">Matches</legend>
        <CheckboxGroup
          {...group('categories')}
          legend="Categories"
          hint="None chosen: any category."
          options={categoryOptions(categories)}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            {...bound}
            name={`${prefix}.match.amountUsdAtLeast`}
            label="USD amount at or above"
            hint="Empty: any amount. An item with no USD value matches."
            inputMode="decimal"
          />
          <TextField
            {...bound}
            name={`${prefix}.match.outflow24hUsdAbove`}
            label="Source vault's 24 h outflow above (USD)"
            hint="Empty: no cap. Counts this item too."
            inputMode="decimal"
          />
          <TextField
            {...bound}
            name={`${prefix}.match.assets`}
            label="Assets"
            hint="Comma-separated, like USDC, ETH. Empty: any asset."
          />
          <TextField
            {...bound}
            name={`${prefix}.match.chains`}
            label="Chains"
            hint="Comma-separated chain ids. Empty: any chain."
          />
        </div>
        <CheckboxGroup
          {...group('destinationKinds')}
          legend="Destination kinds"
          hint="None chosen: any destination."
          options={DESTINATION_OPTIONS}
        />
        <CheckboxGroup
          {...group('initiatorKinds')}
          legend="Started by"
          hint="None chosen: anyone."
          options={INITIATOR_OPTIONS}
        />
        {subOrgs.length > 0 ? (
          <CheckboxGroup
            {...group('subOrgIds')}
            legend="Sub-organizations"
            hint="None chosen: every sub-organization."
            options={subOrgs}
          />
        ) : null}
      </fieldset>
      <OutcomeFields bound={bound} prefix={prefix} members={members} title="Then" />
    </section>
  );
}
