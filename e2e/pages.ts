/**
 * The signed-in pages a whole-app browser test walks, each with what shows it
 * is ready and who reads it: the worker's admin, held to its sub-organization,
 * unless the page is one only an admin of the whole organization reads.
 */
export const SIGNED_IN_PAGES = [
  { path: '/', ready: { role: 'heading', name: 'Overview' } },
  { path: '/vaults', ready: { role: 'table', name: 'Vaults' } },
  { path: '/transactions', ready: { role: 'table', name: 'Transactions' } },
  { path: '/transactions/new', ready: { role: 'heading', name: 'New transaction' } },
  { path: '/approvals', ready: { role: 'heading', name: 'Approvals' } },
  { path: '/bank-accounts', ready: { role: 'table', name: 'Bank accounts' } },
  { path: '/bank-accounts/new', ready: { role: 'heading', name: /bank account/i } },
  { path: '/convert', ready: { role: 'heading', name: 'Convert' } },
  { path: '/contacts', ready: { role: 'table', name: 'Contacts' } },
  { path: '/contacts/new', ready: { role: 'heading', name: 'Propose a contact' } },
  { path: '/audit', ready: { role: 'table', name: 'Audit log' }, member: 'orgAdmin' },
  { path: '/staff', ready: { role: 'heading', name: 'Staff' } },
  { path: '/policies', ready: { role: 'heading', name: 'Approval policies' } },
] as const;
