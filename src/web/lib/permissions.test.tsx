import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STAFF_ROLES, type StaffRole } from '#contract/auth.ts';
import { installFakeApi, json } from '../test/fake-api.ts';
import { renderWithQuery } from '../test/render.tsx';
import { sessionFor } from '../test/session.ts';
import { useSession } from './session-queries.ts';
import { ACTIONS, can, useCan } from './permissions.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const EXPECTED: Record<StaffRole, string[]> = {
  viewer: ['view', 'view-ledger-periods'],
  initiator: [
    'view',
    'view-ledger-periods',
    'create-transaction',
    'create-bank-account',
    'convert',
    'mark-deposit-sent',
    'propose-contact',
    'create-payment-run',
    'reveal-bank-account',
  ],
  approver: ['view', 'view-ledger-periods', 'reveal-bank-account', 'approve'],
  admin: [...ACTIONS],
};

describe('can', () => {
  it.each(STAFF_ROLES)('offers a %s exactly the actions of the role', (role) => {
    const allowed = ACTIONS.filter((action) => can(sessionFor(role), action));
    expect(allowed.sort()).toEqual([...EXPECTED[role]].sort());
  });

  it('offers an admin of some sub-organizations staff management, not the audit log nor policies', () => {
    const scoped = sessionFor('admin', { subOrgIds: ['so_east'] });
    expect(can(scoped, 'manage-staff')).toBe(true);
    expect(can(scoped, 'view-audit')).toBe(false);
    expect(can(scoped, 'edit-policies')).toBe(false);
  });

  it('offers the ledger’s periods and single sign-on only to members of the whole organization', () => {
    expect(can(sessionFor('viewer', { subOrgIds: ['so_east'] }), 'view-ledger-periods')).toBe(
      false,
    );
    const scoped = sessionFor('admin', { subOrgIds: ['so_east'] });
    expect(can(scoped, 'close-ledger-periods')).toBe(false);
    expect(can(scoped, 'manage-sso')).toBe(false);
  });

  it('offers nothing without a session, or to a disabled member', () => {
    for (const action of ACTIONS) {
      expect(can(undefined, action)).toBe(false);
      expect(can(sessionFor('admin', { disabled: true }), action)).toBe(false);
    }
  });
});

function ApprovalActions() {
  const role = useSession()?.member.role;
  const mayApprove = useCan('approve');
  return (
    <>
      <p>{role ? `Signed in as ${role}` : 'Loading session'}</p>
      {mayApprove ? <button type="button">Approve</button> : null}
    </>
  );
}

function renderAs(role: StaffRole) {
  installFakeApi({ '/auth/session': () => json(sessionFor(role)) });
  renderWithQuery(<ApprovalActions />);
}

describe('useCan', () => {
  it('offers an action the signed-in role may take', async () => {
    renderAs('approver');
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('does not offer it to a role that may not, nor while the session loads', async () => {
    renderAs('initiator');
    expect(screen.getByText('Loading session')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await screen.findByText('Signed in as initiator');
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });
});
