/**
 * The audit log's actions as a person reads them. The server records a
 * stable code (`bank_account.reveal`); the log's page shows the words here
 * and offers these codes in its Action filter. A code missing from this list
 * (a newer server) still shows, as its code.
 */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  'auth.login': 'Sign-in',
  'auth.logout': 'Sign-out',
  'auth.second_factor': 'Sign-in code',
  'auth.second_factor.enrol': 'Second factor set up at sign-in',
  'account.password': 'Password changed',
  'account.recovery_codes': 'Recovery codes renewed',
  'account.second_factor.start': 'Second factor set-up started',
  'account.second_factor.enrol': 'Second factor set up',
  'account.display': 'Display settings changed',
  'account.passkey.start': 'Passkey registration started',
  'account.passkey.register': 'Passkey registered',
  'account.passkey.remove': 'Passkey removed',
  'transaction.create': 'Transaction created',
  'transaction.replace': 'Transaction replaced',
  'transaction.cancel': 'Scheduled transfer cancelled',
  'transaction.mark_deposit_done': 'Deposit marked sent',
  'bank_account.create': 'Bank account proposed',
  'bank_account.reveal': 'Full account number revealed',
  'api_user.refused': 'API user refused (outside its allowed networks)',
  'contact.create': 'Contact proposed',
  'contact.update': 'Contact asset list change proposed',
  'vault.create': 'Vault created',
  'sub_org.create': 'Sub-organization created',
  'operation.user_action': 'Operation signed or refused by a vault signer',
  'change_request.approve': 'Approved',
  'change_request.reject': 'Declined',
  'change_request.decide': 'Decision',
  'change_request.linked_accounts': 'Decision between linked accounts (flagged)',
  'policy.draft': 'Policy draft saved',
  'policy.discard': 'Policy draft discarded',
  'policy.publish': 'Policy published',
  'policy.restore': 'Policy version restored as a draft',
  'webhook.create': 'Webhook endpoint registered',
  'webhook.update': 'Webhook endpoint turned on or off',
  'webhook.delete': 'Webhook endpoint deleted',
  'webhook.resend': 'Webhook delivery resent',
  'webhook.resend_failed': 'Failed webhook deliveries resent',
  'ledger.close.propose': 'Ledger month proposed for closing',
  'ledger.journal.mapping': 'Journal account mapping changed',
  'payment_run.create': 'Payment run created',
  'payment_run.update_row': 'Payment run row changed',
  'payment_run.check': 'Payment run checked',
  'payment_run.submit': 'Payment run submitted for approval',
  'payment_run.pause': 'Payment run paused',
  'payment_run.resume': 'Payment run resumed',
  'payment_run.cancel': 'Payment run cancelled',
  'payment_run.retry': 'Payment run failed rows retried',
  'sandbox.sub_org.create': 'Sandbox sub-organization created',
  'sandbox.deposit': 'Sandbox deposit into a vault',
  'sandbox.ramp_quote.expire': "Sandbox ramp's quote expired early",
  'staff.create': 'Member created',
  'staff.update': 'Member changed',
  'staff.disable': 'Member disabled',
  'staff.reset_factor': 'Second factor reset',
  'staff.reset_password': 'Password reset',
};

/** "Full account number revealed" for `bank_account.reveal`; an unknown code as it is. */
export function auditActionLabel(action: string): string {
  return AUDIT_ACTION_LABELS[action] ?? action;
}
