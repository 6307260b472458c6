import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffChangeAnswer, StaffMember, StaffProposal } from '#contract/auth.ts';
import { installFakeApi, json, pagedList } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { StaffPage } from './staff-page.tsx';

const members: StaffMember[] = [
  {
    id: 's_admin',
    email: 'alex@example.test',
    name: 'Alex Admin',
    role: 'admin',
    subOrgIds: null,
    disabled: false,
  },
  {
    id: 's_vera',
    email: 'vera@example.test',
    name: 'Vera Viewer',
    role: 'viewer',
    subOrgIds: ['so_east'],
    disabled: false,
  },
];

const applied = (member: StaffMember): StaffChangeAnswer => ({
  outcome: 'applied',
  member,
  proposal: null,
  setup: { token: 'setup-code-shown-once', expiresAt: '2030-01-04T12:00:00.000Z' },
});

const proposal = (over: Partial<StaffProposal> = {}): StaffProposal => ({
  id: 'p_1',
  kind: 'update',
  staffId: 's_vera',
  subject: { name: 'Vera Viewer', email: 'vera@example.test' },
  change: { role: 'approver' },
  summary: 'vera@example.test: role → approver',
  proposedBy: { id: 's_other', name: 'Olga Other' },
  proposedAt: '2030-01-01T12:00:00.000Z',
  status: 'PENDING',
  decidedBy: null,
  decidedAt: null,
  ...over,
});

function install(
  create: (body: unknown) => Response = () => json(applied(members[1]!), 201),
  session = sessionFor('admin', { id: 's_admin' }),
  proposals: StaffProposal[] = [],
) {
  return installFakeApi({
    '/auth/session': () => json(session),
    '/api/console/staff/': (_url, init) =>
      init.method === 'POST'
        ? create(JSON.parse(String(init.body)))
        : json({ results: members, hasNext: false, nextCursor: null }),
    '/api/console/staff/proposals/': () =>
      json({ results: proposals, hasNext: false, nextCursor: null }),
    '/api/console/staff/s_vera/': (_url, init) =>
      json({
        outcome: 'proposed',
        member: members[1],
        proposal: proposal({ change: JSON.parse(String(init.body)) as StaffProposal['change'] }),
      }),
    '/api/external/sub_orgs/': () =>
      json({
        results: [
          { id: 'so_east', name: 'East desk' },
          { id: 'so_west', name: 'West desk' },
        ],
      }),
  });
}

beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('StaffPage', () => {
  it('finds members by name or email, role and sub-organization, a page at a time', async () => {
    const user = userEvent.setup();
    const team: StaffMember[] = Array.from({ length: 30 }, (_, i) => ({
      id: `s_${i}`,
      email: `member-${i}@example.test`,
      name: i === 27 ? 'Paula Payments' : `Member ${i}`,
      role: i === 27 ? 'approver' : 'viewer',
      subOrgIds: ['so_east'],
      disabled: false,
    }));
    const { calls } = installFakeApi({
      '/auth/session': () => json(sessionFor('admin', { id: 's_admin' })),
      '/api/console/staff/': (url) => {
        const q = url.searchParams.get('q')?.toLowerCase();
        const role = url.searchParams.get('role');
        const found = team.filter(
          (m) =>
            (!q || m.name.toLowerCase().includes(q) || m.email.includes(q)) &&
            (!role || m.role === role),
        );
        return pagedList(found, url);
      },
      '/api/console/staff/proposals/': () =>
        json({ results: [], hasNext: false, nextCursor: null }),
      '/api/external/sub_orgs/': () => json({ results: [{ id: 'so_east', name: 'East desk' }] }),
    });
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const table = await screen.findByRole('table', { name: 'Staff members' });
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.querySelector('td')?.textContent);
    // A page, not the whole team.
    await waitFor(() => expect(names()).toHaveLength(25));
    expect(names()).not.toContain('Paula Payments');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(names()).toContain('Paula Payments'));
    expect(names()).toHaveLength(5);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(names()).toContain('Member 0'));

    const search = screen.getByRole('search', { name: 'Find staff' });
    // Typed text applies with Enter, not a request per key.
    await user.type(within(search).getByLabelText('Name or email'), 'paula{Enter}');
    await waitFor(() => expect(names()).toEqual(['Paula Payments']));
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.clear(within(search).getByLabelText('Name or email'));
    await user.type(within(search).getByLabelText('Name or email'), '{Enter}');
    await waitFor(() => expect(names()).toHaveLength(25));
    await user.selectOptions(within(search).getByLabelText('Role'), 'approver');
    await waitFor(() => expect(names()).toEqual(['Paula Payments']));
    await user.selectOptions(within(search).getByLabelText('Sub-organization'), 'so_east');
    const lastList = () => calls.filter((u) => u.pathname === '/api/console/staff/').at(-1);
    await waitFor(() => expect(lastList()?.searchParams.get('subOrgId')).toBe('so_east'));
    expect(lastList()?.searchParams.get('role')).toBe('approver');
    expect(lastList()?.searchParams.get('limit')).toBe('25');
  });

  it('lists the team, and offers no actions on your own account', async () => {
    install();
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const table = await screen.findByRole('table', { name: 'Staff members' });
    const [admin, vera] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(admin).toHaveTextContent('Your own account');
    expect(within(admin).queryByRole('button')).not.toBeInTheDocument();
    await waitFor(() => expect(vera).toHaveTextContent('East desk'));
    expect(within(vera).getByRole('button', { name: 'Disable Vera Viewer' })).toBeEnabled();
  });

  it('changes a role only after confirming', async () => {
    const user = userEvent.setup();
    const { fetchStub } = install();
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    await screen.findByRole('table', { name: 'Staff members' });

    await user.selectOptions(screen.getByLabelText('Role for Vera Viewer'), 'approver');
    await user.click(screen.getByRole('button', { name: 'Change role of Vera Viewer' }));
    const confirmation = screen.getByRole('group', {
      name: "Change Vera Viewer's role from Viewer to Approver? They are signed out and sign in again under the new role. Another admin must approve it first.",
    });
    expect(within(confirmation).getByRole('button', { name: 'Confirm' })).toHaveFocus();
    expect(fetchStub.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);

    await user.click(within(confirmation).getByRole('button', { name: 'Cancel' }));
    // Focus goes back where the member was.
    expect(screen.getByLabelText('Role for Vera Viewer')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Change role of Vera Viewer' }));
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(fetchStub.mock.calls.find(([, init]) => init?.method === 'PATCH')?.[1]?.body).toBe(
        JSON.stringify({ role: 'approver' }),
      ),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Proposed: it applies once another admin approves it.',
    );
  });

  it("shows the server's refusal next to the field it names", async () => {
    const user = userEvent.setup();
    install(() =>
      json(
        {
          message: 'email: a staff member with this email already exists',
          code: 'CONFLICT',
          fields: [{ field: 'email', message: 'a staff member with this email already exists' }],
        },
        409,
      ),
    );
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const form = await screen.findByRole('form', { name: 'Add a staff member' });
    await user.type(within(form).getByLabelText('Email'), 'vera@example.test');
    await user.type(within(form).getByLabelText('Name'), 'Vera Again');
    await user.click(within(form).getByRole('button', { name: 'Add staff member' }));

    const email = within(form).getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('a staff member with this email already exists');
  });

  it('creates a member limited to chosen sub-organizations, and forgets the draft', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    install((body) => {
      sent = body;
      return json(
        applied({ ...members[1]!, id: 's_new', name: 'Nina New', email: 'nina@example.test' }),
        201,
      );
    });
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const form = await screen.findByRole('form', { name: 'Add a staff member' });
    await user.type(within(form).getByLabelText('Email'), 'Nina@Example.test');
    await user.type(within(form).getByLabelText('Name'), 'Nina New');
    await user.selectOptions(within(form).getByLabelText('Role'), 'initiator');
    await user.click(within(form).getByLabelText('All sub-organizations'));
    await user.click(within(form).getByRole('button', { name: 'Add staff member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'choose at least one sub-organization, or all of them',
    );
    expect(sessionStorage.getItem('form-draft:/staff#create')).toContain('Nina New');

    await user.click(await within(form).findByLabelText('West desk'));
    await user.click(within(form).getByRole('button', { name: 'Add staff member' }));
    const status = await within(form).findByRole('status');
    expect(status).toHaveTextContent('Nina New');
    // The set-up link, shown once: the member chooses their own password with it.
    expect(within(status).getByLabelText('Set-up link (shown once)')).toHaveValue(
      `${window.location.origin}/setup#setup-code-shown-once`,
    );
    expect(sent).toEqual({
      email: 'nina@example.test',
      name: 'Nina New',
      role: 'initiator',
      subOrgIds: ['so_west'],
    });
    expect(sessionStorage.getItem('form-draft:/staff#create')).toBeNull();
    expect(within(form).getByLabelText('Email')).toHaveValue('');
  });

  it('has an admin of some sub-organizations add members to those only, never to all', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    install(
      (body) => {
        sent = body;
        return json(applied({ ...members[1]!, id: 's_new', name: 'Sam Scoped' }), 201);
      },
      sessionFor('admin', { id: 's_east_admin', subOrgIds: ['so_east'] }),
    );
    renderWithRouter(<StaffPage currentMemberId="s_east_admin" />);
    expect(await screen.findByText('You administer members of East desk only.')).toBeVisible();
    const form = await screen.findByRole('form', { name: 'Add a staff member' });
    expect(within(form).queryByLabelText('All sub-organizations')).not.toBeInTheDocument();
    await user.type(within(form).getByLabelText('Email'), 'sam@example.test');
    await user.type(within(form).getByLabelText('Name'), 'Sam Scoped');
    await user.click(within(form).getByRole('button', { name: 'Add staff member' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'choose at least one of the sub-organizations you administer',
    );
    expect(sent).toBeUndefined();

    await user.click(within(form).getByLabelText('East desk'));
    await user.click(within(form).getByRole('button', { name: 'Add staff member' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Sam Scoped');
    expect(sent).toMatchObject({ subOrgIds: ['so_east'] });
  });

  it("lists staff changes awaiting approval; another admin opens one's page to decide it, signed, by keyboard", async () => {
    const user = userEvent.setup();
    const { fetchStub } = install(undefined, undefined, [proposal()]);
    const { router } = renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const list = await screen.findByRole('list', { name: 'Staff changes awaiting approval' });
    const item = within(list).getByRole('listitem');
    expect(item).toHaveTextContent('Change: vera@example.test: role → approver');
    expect(item).toHaveTextContent('Proposed by Olga Other');
    // One way to decide: the held item's page, its card shown and the decision signed over it.
    expect(within(item).queryByRole('button')).not.toBeInTheDocument();
    const open = within(item).getByRole('link', {
      name: 'Review and decide: vera@example.test: role → approver',
    });
    expect(open).toHaveAttribute('href', '/approvals/held/p_1');
    open.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/approvals/held/p_1'));
    // Nothing was decided from the Staff page itself.
    expect(fetchStub.mock.calls.some(([input]) => String(input).includes('/decision/'))).toBe(
      false,
    );
  });

  it("offers no decision on one's own proposal", async () => {
    install(undefined, undefined, [
      proposal(),
      proposal({ id: 'p_2', proposedBy: { id: 's_admin', name: 'Alex Admin' } }),
    ]);
    renderWithRouter(<StaffPage currentMemberId="s_admin" />);
    const list = await screen.findByRole('list', { name: 'Staff changes awaiting approval' });
    const [theirs, mine] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(mine).toHaveTextContent('You proposed this: another admin must approve or decline it.');
    expect(within(mine).queryByRole('link')).not.toBeInTheDocument();
    expect(within(theirs).getByRole('link', { name: /^Review and decide/ })).toBeVisible();
  });
});
