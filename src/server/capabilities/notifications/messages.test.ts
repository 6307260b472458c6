import { describe, expect, it } from 'vitest';
import { chatBody, linkFor, messageFor } from './messages.ts';

describe('notification messages', () => {
  it("links each kind of item to its own page, behind the console's sign-in", () => {
    const base = 'https://console.example.com/';
    const link = (entityType: string, event = 'NEEDS_APPROVAL' as const) =>
      linkFor(base, { event, entityType, entityId: 'id 1' });
    expect(link('TRANSACTION')).toBe('https://console.example.com/transactions/id%201');
    expect(link('BANK_ACCOUNT')).toBe('https://console.example.com/bank-accounts/id%201');
    expect(link('CONTACT')).toBe('https://console.example.com/contacts/id%201');
    expect(link('STAFF_CHANGE')).toBe('https://console.example.com/approvals/held/id%201');
    expect(link('PAYMENT_RUN')).toBe('https://console.example.com/approvals/held/id%201');
    expect(linkFor(base, { event: 'FAILED', entityType: 'PAYMENT_RUN', entityId: 'r' })).toBe(
      'https://console.example.com/payment-runs/r',
    );
    expect(
      linkFor(base, { event: 'POLICY_CHANGED', entityType: 'POLICY_PUBLISH', entityId: 'p' }),
    ).toBe('https://console.example.com/policies');
  });

  it('says what happened, where to look, and that nothing is decided from the message', () => {
    const { subject, text } = messageFor(
      {
        event: 'NEEDS_APPROVAL',
        entityType: 'BANK_ACCOUNT',
        entityId: 'ba_1',
        subOrgId: null,
        detail: 'Its rule: Default.',
      },
      'https://c.example/bank-accounts/ba_1',
    );
    expect(subject).toBe('Bank account ba_1 needs your approval');
    expect(text).toContain('Its rule: Default.');
    expect(text).toContain('https://c.example/bank-accounts/ba_1');
    expect(text).toMatch(/never from this message/);
    expect(
      messageFor({ event: 'STUCK', entityType: 'TRANSACTION', entityId: 't', subOrgId: null }, 'l')
        .subject,
    ).toBe('Transaction t has not moved');
  });

  it("writes Slack's text (markup escaped) and a Teams card whose one action opens the page", () => {
    const message = { subject: 'Contact <x> & y needs your approval', text: 'line' };
    expect(JSON.parse(chatBody('SLACK', message, 'https://c/x'))).toEqual({
      text: '*Contact &lt;x&gt; &amp; y needs your approval*\n<https://c/x|Open in the console>',
    });
    const card = JSON.parse(chatBody('TEAMS', message, 'https://c/x')) as Record<string, unknown>;
    expect(card).toMatchObject({
      '@type': 'MessageCard',
      title: message.subject,
      potentialAction: [{ '@type': 'OpenUri', targets: [{ os: 'default', uri: 'https://c/x' }] }],
    });
  });
});
