import { useId, useState } from 'react';
import { listedTimeZones } from '#contract/display-settings.ts';
import { COLOR_SCHEMES, type ColorScheme, type DisplaySettings } from '#contract/display.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Field, FieldError, describedBy } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { useNow } from '../../../lib/use-now.ts';
import { useUpdateDisplaySettings } from '../api/account-queries.ts';
import { Choice } from '../../../components/ui/input.tsx';

const SCHEME_LABELS: Record<ColorScheme, { label: string; hint: string }> = {
  system: { label: 'System', hint: "follows your device's light or dark setting" },
  light: { label: 'Light', hint: 'always' },
  dark: { label: 'Dark', hint: 'always' },
};

// '' in the select: no choice of the member's, their browser's zone.
const BROWSER = '';

function inUse(display: DisplaySettings): string {
  switch (display.timeZoneSource) {
    case 'member':
      return `${display.timeZone}, your choice.`;
    case 'browser':
      return `${display.timeZone}, your browser's zone when you signed in.`;
    case 'fallback':
      return `${display.timeZone}: your browser reported no time zone this server knows when you signed in.`;
  }
}

/**
 * The member's display settings on /account, and the console's one rule for
 * times, numbers and colours stated where they are set (contract/display.ts).
 * Saved together; the whole console follows at once (the cached session).
 */
export function DisplaySettingsForm({ display }: { display: DisplaySettings }) {
  const id = useId();
  const [zone, setZone] = useState(display.chosenTimeZone ?? BROWSER);
  const [scheme, setScheme] = useState<ColorScheme>(display.colorScheme);
  const [saved, setSaved] = useState<string | null>(null);
  // A moment to show in the zone: the server's instant while rendered there and
  // hydrated (lib/use-now.ts), then the browser's, again each minute.
  const now = new Date(useNow(60_000)).toISOString();
  const update = useUpdateDisplaySettings();
  const fieldErrors = update.error instanceof ApiError ? (update.error.fields ?? []) : [];
  const errorOf = (field: string) => fieldErrors.find((f) => f.field === field)?.message;
  const zoneError = errorOf('timeZone');
  const schemeError = errorOf('colorScheme');
  // The zones this runtime lists: the browser's list once hydrated (the server's
  // ICU may list others); until then the select, disabled, holds only the choice.
  const hydrated = useHydrated();
  const zones = hydrated ? listedTimeZones() : [];
  const choices =
    display.chosenTimeZone && !zones.includes(display.chosenTimeZone)
      ? [display.chosenTimeZone, ...zones]
      : zones;
  const zoneId = `${id}-time-zone`;
  const schemeId = `${id}-color-scheme`;
  const zoneHint = `In use now: ${inUse(display)}`;

  return (
    <FormCard
      title="Time, numbers and colours"
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(null);
        update.mutate(
          { timeZone: zone === BROWSER ? null : zone, colorScheme: scheme },
          { onSuccess: () => setSaved('Saved: the whole console now shows these settings.') },
        );
      }}
      error={update.isError && fieldErrors.length === 0 ? describeError(update.error) : null}
    >
      {saved ? (
        <p
          role="status"
          className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
        >
          {saved}
        </p>
      ) : null}
      <p className="text-sm text-slate-800">
        Every time in the console is shown in one time zone, labelled with it: an abbreviation for
        the US zones and UTC (PST, EDT), otherwise the offset from GMT (GMT+1, GMT+5:30). Date
        filters (From, To) mean whole days in that zone, so a shared link names the same days, read
        in each reader&apos;s own zone. Now: <DateTime iso={now} />.
      </p>
      <Field id={zoneId} label="Time zone" hint={zoneHint} error={zoneError}>
        <Select
          id={zoneId}
          value={zone}
          aria-invalid={zoneError ? true : undefined}
          aria-describedby={describedBy(zoneId, { hint: zoneHint, error: zoneError })}
          onChange={(event) => setZone(event.target.value)}
          className="sm:max-w-md"
        >
          <option value={BROWSER}>
            Your browser&apos;s zone ({display.browserTimeZone ?? 'none reported: UTC'})
          </option>
          {choices.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={schemeError ? `${schemeId}-error` : undefined}
      >
        <legend className="text-sm font-medium text-slate-900">Colour scheme</legend>
        {COLOR_SCHEMES.map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-slate-900">
            <Choice
              type="radio"
              className="size-4"
              name={schemeId}
              value={value}
              checked={scheme === value}
              onChange={() => setScheme(value)}
            />
            <span>
              <span className="font-medium">{SCHEME_LABELS[value].label}</span>{' '}
              <span className="text-slate-700">({SCHEME_LABELS[value].hint})</span>
            </span>
          </label>
        ))}
        <FieldError id={schemeId} error={schemeError} />
      </fieldset>
      <p className="text-sm text-slate-800">
        Amounts and dates are written one way, in English (United States), whatever your
        browser&apos;s language: 1,234,567.89 and Nov 24, 2026. The date pickers are your
        browser&apos;s own and may show its order of day and month.
      </p>
      <FormActions>
        <SubmitButton pending={update.isPending} pendingLabel="Saving…">
          Save display settings
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}
