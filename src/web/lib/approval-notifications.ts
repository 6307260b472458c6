import { isApprovalEvent, type LiveEvent } from '#contract/live-events.ts';

/**
 * Optional desktop notifications for "a new item waits for your approval".
 * Off until the member turns them on with the labelled control
 * on the approvals inbox (features/approvals/components/approval-notifications-toggle.tsx):
 * the browser's permission is asked only then, after that click, never on
 * load. The choice is kept per browser (localStorage), since the permission
 * is the browser's too.
 *
 * Whether an event notifies is decided from what the server counts, not from
 * the event alone: an event that may add an item to the inbox
 * (`mayAddItems`) makes the layout re-read the inbox's count, and a
 * notification is shown only when the count of items this member may decide
 * grew while the tab was hidden (`shouldNotify`). So an item the member
 * proposed themself, one outside their scope, or one a policy does not let
 * them approve never notifies them.
 */

const STORAGE_KEY = 'custody-console.approval-notifications';

export type NotificationSupport = 'unsupported' | NotificationPermission;

/** What this browser allows: no Notification API at all, or its permission. */
export function notificationSupport(): NotificationSupport {
  if (typeof window === 'undefined' || typeof window.Notification === 'undefined')
    return 'unsupported';
  return window.Notification.permission;
}

/** Whether the member turned notifications on in this browser. */
export function notificationsWanted(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Turns notifications on or off. Turning them on asks the browser's
 * permission (call it from the click that asked for it); answers what holds
 * afterwards: on only once the permission is granted.
 */
export async function setNotificationsWanted(on: boolean): Promise<{
  on: boolean;
  support: NotificationSupport;
}> {
  let support = notificationSupport();
  if (on && support === 'default') support = await window.Notification.requestPermission();
  const enabled = on && support === 'granted';
  try {
    window.localStorage.setItem(STORAGE_KEY, enabled ? 'on' : 'off');
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  return { on: enabled, support };
}

/** Events that may put a new item in a member's inbox: a proposal, a transaction waiting. */
export function mayAddItems(events: readonly LiveEvent[]): boolean {
  return events.some((e) =>
    isApprovalEvent(e)
      ? e.kind === 'approval.proposed' || (e.kind === 'approval.vote' && e.status === 'WITHDRAWN')
      : e.kind === 'transaction.status' && e.status === 'PENDING',
  );
}

/**
 * Whether to show "a new item waits for your approval": the member wants it
 * and the browser allows it, the tab is hidden (a visible inbox shows it
 * already), and the items this member may decide grew from `before` to
 * `after` (an unknown count before is not a change: nothing was shown yet).
 */
export function shouldNotify(input: {
  before: number | undefined;
  after: number | undefined;
  hidden: boolean;
  wanted: boolean;
  support: NotificationSupport;
}): boolean {
  const { before, after, hidden, wanted, support } = input;
  if (!wanted || support !== 'granted' || !hidden) return false;
  return before !== undefined && after !== undefined && after > before;
}

/** Shows the notification; a click brings the tab forward and opens the inbox. */
export function showApprovalNotification(waiting: number, openInbox: () => void): void {
  const notification = new window.Notification('A new item waits for your approval', {
    body:
      waiting === 1
        ? '1 item waits for your decision in Custody Console.'
        : `${waiting} items wait for your decision in Custody Console.`,
    // One at a time: a newer one replaces the last rather than stacking up.
    tag: 'custody-console-approvals',
  });
  notification.onclick = () => {
    window.focus();
    openInbox();
    notification.close();
  };
}
