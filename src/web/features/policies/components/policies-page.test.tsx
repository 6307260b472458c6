import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffRole } from '#contract/auth.ts';
import {
  DEFAULT_POLICY,
  type Policy,
  type PolicyState,
  type PolicyVersion,
} from '#contract/policies.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { PoliciesPage } from './policies-page.tsx';

const twoForBig: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

const active: PolicyVersion = {
  kind: 'transactions',
  version: 0,
  status: 'ACTIVE',
  policy: DEFAULT_POLICY,
  revision: 0,
  basedOn: null,
  editors: [],
  updatedAt: null,
  publishedBy: null,
  publishedAt: null,
  publishItem: null,
};

const draft: PolicyVersion = {
  ...active,
  version: null,
  status: 'DRAFT',
  policy: twoForBig,
  revision: 3,
  basedOn: 0,
  editors: [{ id: 'staff_ada', name: 'Ada Admin' }],
  updatedAt: '2026-11-20T10:00:00.000Z',
  publishItem: 'policy-draft-7-r3',
};

const URL = '/api/console/policies/transactions/';

function install(
  role: StaffRole,
  state: PolicyState,
  routes: Parameters<typeof installFakeApi>[0] = {},
  member: Parameters<typeof sessionFor>[1] = {},
) {
  return installFakeApi({
    '/auth/session': () => json(sessionFor(role, member)),
    '/api/external/sub_orgs/': () => json({ results: [{ id: 'so_east', name: 'East desk' }] }),
    '/api/console/staff/': () => json({ results: [], hasNext: false, nextCursor: null }),
    [URL]: () => json(state),
    ...routes,
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PoliciesPage', () => {
  it('lists the active rules in one line each and the draft as changes; its editor may not publish it', async () => {
    install('admin', { active, draft, history: [] }, {}, { id: 'staff_ada' });
    renderWithRouter(<PoliciesPage kind="transactions" />);
    const rules = await screen.findByRole('list', { name: 'Rules of the active policy' });
    expect(rules).toHaveTextContent('Otherwise → 1 approval from anyone who may approve');
    const changes = screen.getByRole('list', { name: 'Changes from the active policy' });
    expect(changes).toHaveTextContent(
      'Added as rule 1: Big transfers: Transfer ≥ $10,000.00 → 2 approvals from approvers or admins',
    );
    expect(await screen.findByTestId('publish-blocked')).toHaveTextContent('You edited this draft');
    expect(screen.queryByRole('link', { name: /Review and publish/ })).not.toBeInTheDocument();
  });

  it("opens the draft revision's publish item, decided on its own page signed over its card", async () => {
    const { fetchStub } = install('admin', { active, draft, history: [] });
    const user = userEvent.setup();
    const { router } = renderWithRouter(<PoliciesPage kind="transactions" />);
    // One way to decide a publish: the held item's page, not a decision from here.
    const open = await screen.findByRole('link', { name: 'Review and publish revision 3…' });
    expect(open).toHaveAttribute('href', '/approvals/held/policy-draft-7-r3');
    expect(screen.queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
    await user.click(open);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/approvals/held/policy-draft-7-r3'),
    );
    expect(fetchStub.mock.calls.some(([input]) => String(input).includes('publish'))).toBe(false);
  });

  it('names the revision saved since: its own item, the older one no longer offered', async () => {
    let revision = 3;
    install(
      'admin',
      { active, draft, history: [] },
      {
        [URL]: () =>
          json({
            active,
            draft: { ...draft, revision, publishItem: `policy-draft-7-r${revision}` },
            history: [],
          }),
      },
    );
    const { client } = renderWithRouter(<PoliciesPage kind="transactions" />);
    await screen.findByRole('link', { name: 'Review and publish revision 3…' });
    revision = 4;
    await client.invalidateQueries();
    const open = await screen.findByRole('link', { name: 'Review and publish revision 4…' });
    expect(open).toHaveAttribute('href', '/approvals/held/policy-draft-7-r4');
    expect(screen.getByTestId('draft-facts')).toHaveTextContent('Revision 4');
  });

  it('shows a viewer the policy and the preview, and no editing controls', async () => {
    install('viewer', { active, draft, history: [] });
    renderWithRouter(<PoliciesPage kind="transactions" />);
    await screen.findByRole('list', { name: 'Rules of the active policy' });
    expect(screen.getByRole('form', { name: 'What would this need?' })).toBeInTheDocument();
    for (const name of [/Publish/, /Discard/, /Edit draft/, /Begin a draft/])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Review and publish/ })).not.toBeInTheDocument();
  });

  it("checks the editor with the contract's rules, each beside its field", async () => {
    const save = vi.fn(() => json(draft));
    install('admin', { active, draft: null, history: [] }, { [`${URL}draft/`]: save });
    const user = userEvent.setup();
    renderWithRouter(<PoliciesPage kind="transactions" />);
    await user.click(
      await screen.findByRole('button', { name: 'Begin a draft from the active policy' }),
    );
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    const approvals = screen.getAllByLabelText('Approvals needed')[0]!;
    await user.clear(approvals);
    await user.type(approvals, '0');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText('give the rule a name')).toBeInTheDocument();
    expect(approvals).toHaveAttribute('aria-invalid', 'true');
    expect(approvals).toHaveAccessibleDescription(/at least one approval/);
    expect(save).not.toHaveBeenCalled();
  });

  it('offers the categories a person sees on transactions, none ticked for a new rule, each saying what it covers', async () => {
    install('admin', { active, draft: null, history: [] });
    const user = userEvent.setup();
    renderWithRouter(<PoliciesPage kind="transactions" />);
    await user.click(
      await screen.findByRole('button', { name: 'Begin a draft from the active policy' }),
    );
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    const categories = screen.getByRole('group', { name: 'Categories' });
    const boxes = within(categories).getAllByRole('checkbox');
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).not.toContain(true);
    const transfer = within(categories).getByRole('checkbox', { name: 'Transfer' });
    expect(transfer).toHaveAccessibleDescription('Covers transfers and token transfers.');
    expect(within(categories).getByRole('checkbox', { name: 'Off-ramp' })).not.toBeChecked();
    expect(within(categories).queryByRole('checkbox', { name: /Token transfer/ })).toBeNull();
    expect(categories).toHaveAccessibleDescription('None chosen: any category.');
  });

  it('shows a stored rule’s older, narrower category as it stands, to keep or untick', async () => {
    const stored: PolicyVersion = {
      ...draft,
      policy: {
        ...twoForBig,
        rules: twoForBig.rules.map((rule) => ({
          ...rule,
          match: { ...rule.match, categories: ['TOKEN_TRANSFER'] },
        })),
      },
    };
    install('admin', { active, draft: stored, history: [] }, {}, { id: 'staff_bo' });
    const user = userEvent.setup();
    renderWithRouter(<PoliciesPage kind="transactions" />);
    await user.click(await screen.findByRole('button', { name: 'Edit draft' }));
    const categories = screen.getByRole('group', { name: 'Categories' });
    const old = within(categories).getByRole('checkbox', { name: /^Token transfer/ });
    expect(old).toBeChecked();
    expect(old).toHaveAccessibleDescription(/Transfer covers these too/);
  });

  it('keeps what was typed when someone else changed the draft, and saves against the new revision', async () => {
    let revision = 3;
    const bodies: unknown[] = [];
    install(
      'admin',
      { active, draft, history: [] },
      {
        [URL]: () => json({ active, draft: { ...draft, revision }, history: [] }),
        [`${URL}draft/`]: (_url, init) => {
          bodies.push(JSON.parse(String(init.body)));
          if (bodies.length === 1) {
            revision = 4;
            return json(
              { message: 'The draft changed since revision 3', code: 'POLICY_DRAFT_CHANGED' },
              409,
            );
          }
          return json({ ...draft, revision: 5 });
        },
      },
      { id: 'staff_bo' },
    );
    const user = userEvent.setup();
    renderWithRouter(<PoliciesPage kind="transactions" />);
    await user.click(await screen.findByRole('button', { name: 'Edit draft' }));
    const name = screen.getByLabelText('Rule name');
    await user.clear(name);
    await user.type(name, 'Large transfers');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Someone else changed the draft');
    await user.click(within(alert).getByRole('button', { name: /Reload the draft/ }));
    expect(await screen.findByText(/the draft is now at revision 4/)).toBeInTheDocument();
    expect(screen.getByLabelText('Rule name')).toHaveValue('Large transfers');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({
      revision: 4,
      policy: { rules: [{ name: 'Large transfers' }] },
    });
  });
});
