import { useId, useState } from 'react';
import {
  notificationSupport,
  notificationsWanted,
  setNotificationsWanted,
  type NotificationSupport,
} from '../../../lib/approval-notifications.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';
import { Choice } from '../../../components/ui/input.tsx';

const BLOCKED =
  'Your browser blocks notifications from this site: allow them in its site settings, then turn this on again.';

/**
 * The one control for desktop notifications (lib/approval-notifications.ts):
 * a labelled checkbox; the browser's permission is asked when it is checked,
 * never before. What the browser answered is said beside it, announced.
 * Rendered once hydrated: the server cannot know this browser's permission.
 */
export function ApprovalNotificationsToggle() {
  const hydrated = useHydrated();
  const id = useId();
  // What the browser answered last; until asked, what it says now (read while rendering).
  const [support, setSupport] = useState<NotificationSupport | undefined>(undefined);
  const [asking, setAsking] = useState(false);
  if (!hydrated) return null;
  const current = support ?? notificationSupport();
  if (current === 'unsupported') return null;
  const checked = current === 'granted' && notificationsWanted();
  return (
    <div className="text-sm">
      <label htmlFor={id} className="flex items-center gap-2 text-slate-800">
        <Choice
          id={id}
          type="checkbox"
          className="size-4"
          checked={checked}
          disabled={asking}
          aria-describedby={`${id}-status`}
          onChange={(event) => {
            const wanted = event.currentTarget.checked;
            setAsking(true);
            void setNotificationsWanted(wanted).then((result) => {
              setSupport(result.support);
              setAsking(false);
            });
          }}
        />
        Notify me on this device when a new item waits for my approval
      </label>
      <p id={`${id}-status`} role="status" className="ml-6 text-slate-700">
        {current === 'denied'
          ? BLOCKED
          : checked
            ? 'Shown while this tab is in the background.'
            : ''}
      </p>
    </div>
  );
}
