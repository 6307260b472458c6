import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AppLayout, type NavItem } from '../../../components/layout/app-layout.tsx';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { can } from '../../../lib/permissions.ts';
import { AccountMenu } from './account-menu.tsx';
import { BackendBadge } from './backend-badge.tsx';
import { PasskeyPrompt } from './passkey-prompt.tsx';
import { ScopeSwitcher } from './scope-switcher.tsx';

/**
 * The signed-in chrome: navigation limited to what the member's role may
 * use, the scope switcher, and who is signed in.
 */
export function AuthenticatedShell({
  subOrg,
  onScopeChange,
  approvals,
  children,
}: {
  subOrg: string | undefined;
  onScopeChange: (subOrg: string | undefined) => void;
  /** For members who decide: the inbox in the navigation, with how many items wait for them. */
  approvals?: { count: number | undefined } | undefined;
  children: ReactNode;
}) {
  const session = useSession();
  const subOrgs = useQuery(referenceQueries.subOrgs());

  const navItems: NavItem[] = [
    { to: '/', label: 'Overview' },
    { to: '/vaults', label: 'Vaults' },
    { to: '/transactions', label: 'Transactions' },
    { to: '/bank-accounts', label: 'Bank accounts' },
    { to: '/contacts', label: 'Address book' },
    { to: '/ledger', label: 'Ledger' },
  ];
  if (can(session, 'convert')) navItems.push({ to: '/convert', label: 'Convert' });
  // Every member may read the runs (the server's list is held to `read`).
  if (can(session, 'view')) navItems.push({ to: '/payment-runs', label: 'Payment runs' });
  if (approvals)
    navItems.push({
      to: '/approvals',
      label: 'Approvals',
      count: approvals.count,
      countLabel: (n) => `${n} waiting for your decision`,
    });
  // Every member may read the policies (by their address); the menu offers them to admins.
  if (can(session, 'manage-staff')) navItems.push({ to: '/policies', label: 'Policies' });
  if (can(session, 'view-ledger-periods'))
    navItems.push({ to: '/ledger/periods', label: 'Ledger periods' });
  if (can(session, 'view-audit')) navItems.push({ to: '/audit', label: 'Audit log' });
  if (can(session, 'manage-staff')) navItems.push({ to: '/staff', label: 'Staff' });
  if (can(session, 'manage-webhooks'))
    navItems.push({ to: '/settings/webhooks', label: 'Webhooks' });
  if (can(session, 'manage-sso')) navItems.push({ to: '/settings/sso', label: 'Single sign-on' });
  if (can(session, 'manage-api-keys'))
    navItems.push({ to: '/settings/api-keys', label: 'API keys' });
  if (can(session, 'manage-notifications'))
    navItems.push({ to: '/settings/notifications', label: 'Notifications' });

  const scopeName = subOrg
    ? (subOrgs.data?.results.find((s) => s.id === subOrg)?.name ?? subOrg)
    : session?.member.subOrgIds
      ? 'All my sub-organizations'
      : 'All sub-organizations';

  return (
    <AppLayout
      navItems={navItems}
      status={<BackendBadge />}
      account={
        <>
          <ScopeSwitcher
            value={subOrg}
            allowedSubOrgIds={session?.member.subOrgIds}
            onChange={onScopeChange}
          />
          {session ? <AccountMenu session={session} scopeLabel={scopeName} /> : null}
        </>
      }
    >
      <PasskeyPrompt session={session} />
      {children}
    </AppLayout>
  );
}
