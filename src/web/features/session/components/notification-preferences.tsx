import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getNotificationPreferences,
  updateNotificationPreferences,
} from '#contract/endpoints/notifications.ts';
import { useId, useState } from 'react';
import {
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationPreferences,
} from '#contract/notifications.ts';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Choice } from '../../../components/ui/input.tsx';
import { apiClient } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-errors.ts';

/** The member's own notification preferences (the admin's settings are Settings → Notifications). */
const preferencesQuery = () =>
  queryOptions({
    queryKey: ['account', 'notifications'] as const,
    queryFn: ({ signal }) => apiClient.call(getNotificationPreferences, {}, { signal }),
  });

function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationPreferences) =>
      apiClient.call(updateNotificationPreferences, { body }),
    onSuccess: (saved) => queryClient.setQueryData(preferencesQuery().queryKey, saved),
  });
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({
  value: String(h),
  label: `${String(h).padStart(2, '0')}:00`,
}));

function PreferencesForm({ saved }: { saved: NotificationPreferences }) {
  const id = useId();
  const [events, setEvents] = useState<NotificationEvent[]>(saved.events);
  const [email, setEmail] = useState(saved.email);
  const [digest, setDigest] = useState(saved.digest);
  const [hour, setHour] = useState(String(saved.digestHour));
  const save = useSavePreferences();
  const toggle = (event: NotificationEvent, on: boolean) =>
    setEvents((now) => (on ? [...now, event] : now.filter((e) => e !== event)));
  return (
    <FormCard
      title="Notifications"
      onSubmit={(e) => {
        e.preventDefault();
        // eslint-disable-next-line no-restricted-syntax -- an hour of the day, chosen from 0–23
        save.mutate({ events, email, digest, digestHour: Number.parseInt(hour, 10) });
      }}
      error={save.isError ? `Not saved: ${describeError(save.error)}` : null}
    >
      <label className="flex items-center gap-2 text-sm">
        <Choice
          type="checkbox"
          className="size-4"
          checked={email}
          onChange={(e) => setEmail(e.target.checked)}
        />
        Email me notifications
      </label>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Tell me when</legend>
        {NOTIFICATION_EVENTS.map((event) => (
          <label key={event} className="flex items-center gap-2 text-sm">
            <Choice
              type="checkbox"
              className="size-4"
              checked={events.includes(event)}
              onChange={(e) => toggle(event, e.target.checked)}
            />
            {NOTIFICATION_EVENT_LABELS[event]}
          </label>
        ))}
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <Choice
          type="checkbox"
          className="size-4"
          checked={digest}
          onChange={(e) => setDigest(e.target.checked)}
        />
        Instead of a message per item waiting for my approval, send me a daily digest
      </label>
      {digest ? (
        <SelectField
          id={`${id}-hour`}
          label="Digest time (your time zone)"
          options={HOURS}
          value={hour}
          onChange={(e) => setHour(e.target.value)}
        />
      ) : null}
      {save.isSuccess ? (
        <p role="status" className="text-sm text-green-800">
          Saved.
        </p>
      ) : null}
      <FormActions>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save notification preferences
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

/** The member's own notification preferences, on the account page. */
export function NotificationPreferencesPanel() {
  const prefs = useQuery(preferencesQuery());
  if (prefs.isError)
    return (
      <ErrorState
        title="Your notification preferences could not be loaded"
        error={prefs.error}
        onRetry={() => void prefs.refetch()}
      />
    );
  return prefs.data ? <PreferencesForm saved={prefs.data} /> : null;
}
