import type { ChatFormat, NotificationEvent } from '#contract/notifications.ts';

/**
 * What a notification says, and where it leads: pure, so the words and the
 * links are tested without a mail server. A message names the kind of item
 * and its id and links to the item's own page in the console, where the
 * member signs in and sees the whole approval card: it carries no link that
 * acts, and nothing a list would mask (an account number is never in it).
 */

/** What a notice is about, as the notifier read it from an event. */
export interface Notice {
  event: NotificationEvent;
  entityType: string;
  entityId: string;
  subOrgId: string | null;
  /** A line about the item beyond its kind and id (its rule, its new status), or none. */
  detail?: string;
}

const KIND_WORDS: Readonly<Record<string, string>> = {
  TRANSACTION: 'Transaction',
  BANK_ACCOUNT: 'Bank account',
  CONTACT: 'Contact',
  PAYMENT_RUN: 'Payment run',
  STAFF_CHANGE: 'Staff change',
  POLICY_PUBLISH: 'Policy change',
  LEDGER_PERIOD: 'Month close',
};

/** The item's kind in words ("Bank account"); an unknown kind by its name, readable. */
export function kindWords(entityType: string): string {
  const known = KIND_WORDS[entityType];
  if (known) return known;
  const words = entityType.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The console page a notice leads to: the item's own page (every held kind
 * shares the held-item page), the policies for a policy change, the staff
 * page for a new admin.
 */
export function linkPath(notice: Pick<Notice, 'event' | 'entityType' | 'entityId'>): string {
  const id = encodeURIComponent(notice.entityId);
  if (notice.event === 'POLICY_CHANGED') return '/policies';
  if (notice.event === 'NEW_ADMIN') return '/staff';
  switch (notice.entityType) {
    case 'TRANSACTION':
      return `/transactions/${id}`;
    case 'BANK_ACCOUNT':
      return `/bank-accounts/${id}`;
    case 'CONTACT':
      return `/contacts/${id}`;
    case 'PAYMENT_RUN':
      return notice.event === 'NEEDS_APPROVAL' ? `/approvals/held/${id}` : `/payment-runs/${id}`;
    default:
      return `/approvals/held/${id}`;
  }
}

/** The absolute link: the console's base URL (NOTIFICATION_BASE_URL) and the page's path. */
export function linkFor(
  baseUrl: string,
  notice: Pick<Notice, 'event' | 'entityType' | 'entityId'>,
): string {
  return `${baseUrl.replace(/\/+$/, '')}${linkPath(notice)}`;
}

/** A notice's subject line and its plain text, with the link. */
export function messageFor(notice: Notice, link: string): { subject: string; text: string } {
  const what = `${kindWords(notice.entityType)} ${notice.entityId}`;
  const subjects: Record<NotificationEvent, string> = {
    NEEDS_APPROVAL: `${what} needs your approval`,
    APPROVED: `${what} was approved`,
    DECLINED: `${what} was declined`,
    FAILED: `${what} failed`,
    STUCK: `${what} has not moved`,
    POLICY_CHANGED: `An approval policy changed`,
    NEW_ADMIN: `A member became an admin`,
  };
  const subject = subjects[notice.event];
  const lines = [
    `${subject}.`,
    ...(notice.detail ? [notice.detail] : []),
    '',
    `Open it in the console (you will be asked to sign in): ${link}`,
    '',
    'Decisions are made in the console only, never from this message.',
  ];
  return { subject, text: lines.join('\n') };
}

/**
 * The JSON body a team's incoming webhook takes: Slack's `text` (mrkdwn, the
 * link as `<url|label>`), or a Microsoft Teams message card with the link as
 * its one action, which opens the page.
 */
export function chatBody(
  format: ChatFormat,
  message: { subject: string; text: string },
  link: string,
): string {
  if (format === 'SLACK')
    return JSON.stringify({
      text: `*${escapeSlack(message.subject)}*\n<${link}|Open in the console>`,
    });
  return JSON.stringify({
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: message.subject,
    title: message.subject,
    text: message.text,
    potentialAction: [
      { '@type': 'OpenUri', name: 'Open in the console', targets: [{ os: 'default', uri: link }] },
    ],
  });
}

/** Slack reads &, < and > as markup: escaped as its documentation says. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
