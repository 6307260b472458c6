import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { ProposeBankAccountForm } from './propose-bank-account-form.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const CREATE = '/api/external/bank_accounts/';
const MATCHES = '/api/console/bank_accounts/matches/';

const EU = { value: 'so_eu', label: 'Treasury EU' };
const US = { value: 'so_us', label: 'Treasury US' };

/** Where the member may propose: by default, held to Treasury EU alone. */
interface Scope {
  subOrgId: string | undefined;
  subOrgs: Array<{ value: string; label: string }>;
  wholeOrganization: boolean;
}
const ONLY_EU: Scope = { subOrgId: 'so_eu', subOrgs: [EU], wholeOrganization: false };

async function renderForm(
  create: (body: Record<string, unknown>) => Response = (body) =>
    json({ id: 'ba_new', status: 'PENDING', ...body }),
  identical: Array<Record<string, unknown>> = [],
  scope: Scope = ONLY_EU,
) {
  const sent: Array<Record<string, unknown>> = [];
  const checked: Array<Record<string, unknown>> = [];
  installFakeApi({
    [MATCHES]: (_url, init) => {
      checked.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json({ results: identical, complete: true });
    },
    [CREATE]: (_url, init) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push(body);
      return create(body);
    },
  });
  const onProposed = vi.fn();
  // In a router: the warning links to the accounts it names.
  renderWithRouter(<ProposeBankAccountForm {...scope} onProposed={onProposed} />);
  const form = await screen.findByRole('form', { name: 'Propose a bank account' });
  return { form, sent, checked, onProposed, user: userEvent.setup() };
}

const field = (form: HTMLElement, label: string) => within(form).getByLabelText(label);

describe('ProposeBankAccountForm', () => {
  it('shows exactly the chosen rail’s fields, under the rail’s names', async () => {
    const { form, user } = await renderForm();
    expect(within(form).queryByRole('textbox')).not.toBeInTheDocument();

    await user.click(within(form).getByRole('radio', { name: /^SEPA/ }));
    const sepaLabels = within(form)
      .getAllByRole('textbox')
      .map((el) => (el as HTMLInputElement).labels?.[0]?.textContent);
    expect(sepaLabels).toEqual([
      'Account holder name',
      'IBAN',
      'Bank name',
      'Country',
      'Your reference (optional)',
    ]);

    await user.click(within(form).getByRole('radio', { name: /^US wire/ }));
    expect(field(form, 'ABA routing number')).toBeInTheDocument();
    expect(field(form, 'ZIP code')).toBeInTheDocument();
    expect(within(form).getByRole('combobox', { name: 'State' })).toBeInTheDocument();
    expect(within(form).queryByLabelText('IBAN')).not.toBeInTheDocument();
    // US rails pay US accounts: the country is fixed.
    expect(field(form, 'Country')).toHaveValue('US');
    expect(field(form, 'Country')).toHaveAttribute('readonly');
  });

  it('checks a field as it is left, announces the error tied to it, and keeps what was typed', async () => {
    const { form, user } = await renderForm();
    await user.click(within(form).getByRole('radio', { name: /^US ACH/ }));
    const routing = field(form, 'ABA routing number');
    await user.type(routing, '021000022');
    await user.tab();

    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent(
      'ABA routing number must be a 9-digit ABA routing number with a valid checksum',
    );
    expect(routing).toHaveAttribute('aria-invalid', 'true');
    expect(routing.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    expect(routing).toHaveValue('021000022');

    // Fixed as typed: the error goes at once.
    await user.clear(routing);
    await user.type(routing, '021000021');
    await waitFor(() => expect(routing).not.toHaveAttribute('aria-invalid'));
    expect(within(form).queryByText(/ABA routing number must be/)).not.toBeInTheDocument();
  });

  it('groups an IBAN on leaving it, fills in its country, and sends it without spaces', async () => {
    const { form, sent, onProposed, user } = await renderForm();
    await user.click(within(form).getByRole('radio', { name: /^SEPA/ }));
    await user.type(field(form, 'Account holder name'), 'Acme Malta Ltd');
    await user.type(field(form, 'IBAN'), 'mt84malt011000012345mtlcast001s');
    await user.tab();
    expect(field(form, 'IBAN')).toHaveValue('MT84 MALT 0110 0001 2345 MTLC AST0 01S');
    await waitFor(() => expect(field(form, 'Country')).toHaveValue('MT'));
    await user.type(field(form, 'Bank name'), 'Bank of Valletta');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));

    await waitFor(() => expect(onProposed).toHaveBeenCalledTimes(1));
    expect(sent).toEqual([
      {
        paymentMethod: 'SEPA',
        accountName: 'Acme Malta Ltd',
        accountNumber: 'MT84MALT011000012345MTLCAST001S',
        bankName: 'Bank of Valletta',
        country: 'MT',
        subOrgId: 'so_eu',
      },
    ]);
  });

  it('warns of an identical account already in scope, and proposes only when asked again', async () => {
    const existing = {
      id: 'ba_old',
      status: 'APPROVED',
      accountName: 'Acme Malta Ltd',
      bankName: 'Bank of Valletta',
      accountNumber: '•••• 001S',
      paymentMethod: 'SEPA',
    };
    const { form, sent, checked, onProposed, user } = await renderForm(undefined, [existing]);
    await user.click(within(form).getByRole('radio', { name: /^SEPA/ }));
    await user.type(field(form, 'Account holder name'), 'Acme Malta Ltd');
    await user.type(field(form, 'IBAN'), 'MT84MALT011000012345MTLCAST001S');
    await user.tab();
    await user.type(field(form, 'Bank name'), 'Bank of Valletta');
    await user.dblClick(within(form).getByRole('button', { name: 'Propose bank account' }));

    const warning = await within(form).findByRole('alert');
    expect(warning).toHaveTextContent(/already in your scope/);
    expect(warning).toHaveTextContent(/Nothing was proposed/);
    expect(within(warning).getByRole('link', { name: /•••• 001S/ })).toBeVisible();
    // Asked with the full number in the body (never in a URL); nothing proposed.
    expect(checked[0]).toEqual({
      paymentMethod: 'SEPA',
      accountNumber: 'MT84MALT011000012345MTLCAST001S',
      routingNumber: null,
    });
    expect(sent).toEqual([]);

    await user.dblClick(within(warning).getByRole('button', { name: 'Propose it anyway' }));
    await waitFor(() => expect(onProposed).toHaveBeenCalledTimes(1));
    expect(sent).toHaveLength(1);
  });

  it('sends nothing while a rule fails, and focuses the first field to fix', async () => {
    const { form, sent, user } = await renderForm();
    await user.click(within(form).getByRole('radio', { name: /^SWIFT/ }));
    await user.type(field(form, 'City'), 'London');
    await user.type(field(form, 'BIC (SWIFT code)'), 'NWBK12');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));

    await waitFor(() => expect(field(form, 'Account holder name')).toHaveFocus());
    expect(within(form).getByText('Account holder name is required for SWIFT')).toBeVisible();
    expect(
      within(form).getByText('BIC (SWIFT code) must be a valid BIC (SWIFT code), like "DEUTDEFF"'),
    ).toBeVisible();
    expect(field(form, 'City')).toHaveValue('London');
    expect(field(form, 'City')).not.toHaveAttribute('aria-invalid');
    expect(sent).toEqual([]);
  });

  it('puts each field the server refuses on that field, under its label', async () => {
    const { form, onProposed, user } = await renderForm(() =>
      json(
        {
          code: 'VALIDATION_ERROR',
          message: 'The request has invalid fields',
          fields: [{ field: 'bankName', message: 'bankName is not a bank this sandbox knows' }],
        },
        400,
      ),
    );
    await user.click(within(form).getByRole('radio', { name: /^Bank transfer/ }));
    await user.type(field(form, 'Account holder name'), 'Acme KK');
    await user.type(field(form, 'Account number'), '0012345678');
    await user.type(field(form, 'Bank name'), 'Nowhere Bank');
    await user.type(field(form, 'Country'), 'jp');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));

    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Bank name is not a bank this sandbox knows',
    );
    await waitFor(() => expect(field(form, 'Bank name')).toHaveFocus());
    expect(field(form, 'Bank name')).toHaveAttribute('aria-invalid', 'true');
    expect(field(form, 'Account number')).toHaveValue('0012345678');
    expect(onProposed).not.toHaveBeenCalled();
  });

  it('fixes the sub-organization of a member held to one', async () => {
    const { form, user } = await renderForm();
    await user.click(within(form).getByRole('radio', { name: /^US ACH/ }));
    const fixed = within(form).getByRole('status', { name: 'Sub-organization' });
    expect(fixed).toHaveTextContent('Treasury EU');
    expect(within(form).queryByRole('combobox', { name: 'Sub-organization' })).toBeNull();
  });

  it('lets a member of several sub-organizations choose one, and refuses none as they go', async () => {
    const scope = { subOrgId: undefined, subOrgs: [EU, US], wholeOrganization: false };
    const { form, sent, onProposed, user } = await renderForm(undefined, [], scope);
    await user.click(within(form).getByRole('radio', { name: /^Bank transfer/ }));
    const subOrg = within(form).getByRole('combobox', { name: 'Sub-organization' });
    expect(
      within(subOrg)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a sub-organization', 'Treasury EU', 'Treasury US']);
    await user.type(field(form, 'Account holder name'), 'Acme KK');
    await user.type(field(form, 'Account number'), '0012345678');
    await user.type(field(form, 'Bank name'), 'Mizuho');
    await user.type(field(form, 'Country'), 'JP');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));
    expect(
      await within(form).findByText('Choose the sub-organization the account belongs to'),
    ).toBeVisible();
    expect(subOrg).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);

    await user.selectOptions(subOrg, 'Treasury US');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));
    await waitFor(() => expect(onProposed).toHaveBeenCalledTimes(1));
    expect(sent[0]).toMatchObject({ subOrgId: 'so_us' });
  });

  it('starts an unrestricted member on the scope chosen above, and offers the whole organization', async () => {
    const scope = { subOrgId: 'so_us', subOrgs: [EU, US], wholeOrganization: true };
    const { form, sent, onProposed, user } = await renderForm(undefined, [], scope);
    await user.click(within(form).getByRole('radio', { name: /^Bank transfer/ }));
    const subOrg = within(form).getByRole('combobox', { name: 'Sub-organization' });
    expect(subOrg).toHaveValue('so_us');
    expect(within(subOrg).getAllByRole('option')[0]).toHaveTextContent(
      'None: the whole organization',
    );
    await user.selectOptions(subOrg, 'None: the whole organization');
    await user.type(field(form, 'Account holder name'), 'Acme KK');
    await user.type(field(form, 'Account number'), '0012345678');
    await user.type(field(form, 'Bank name'), 'Mizuho');
    await user.type(field(form, 'Country'), 'JP');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));
    await waitFor(() => expect(onProposed).toHaveBeenCalledTimes(1));
    expect(sent[0]).not.toHaveProperty('subOrgId');
  });

  it('puts the server’s refusal of the sub-organization on its field', async () => {
    const message = 'subOrgId is not one of your sub-organizations: "so_us" is outside your scope';
    const scope = { subOrgId: 'so_us', subOrgs: [EU, US], wholeOrganization: false };
    const { form, onProposed, user } = await renderForm(
      () => json({ code: 'NOT_FOUND', message, fields: [{ field: 'subOrgId', message }] }, 404),
      [],
      scope,
    );
    await user.click(within(form).getByRole('radio', { name: /^Bank transfer/ }));
    await user.type(field(form, 'Account holder name'), 'Acme KK');
    await user.type(field(form, 'Account number'), '0012345678');
    await user.type(field(form, 'Bank name'), 'Mizuho');
    await user.type(field(form, 'Country'), 'JP');
    await user.click(within(form).getByRole('button', { name: 'Propose bank account' }));
    const subOrg = within(form).getByRole('combobox', { name: 'Sub-organization' });
    await waitFor(() => expect(subOrg).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByRole('alert')).toHaveTextContent(
      /^Sub-organization is not one of your sub-organizations/,
    );
    expect(onProposed).not.toHaveBeenCalled();
  });

  it('keeps a draft of the tab’s form without the account or routing number', async () => {
    const { form, user } = await renderForm();
    await user.click(within(form).getByRole('radio', { name: /^US ACH/ }));
    await user.type(field(form, 'Account holder name'), 'Acme Payroll');
    await user.type(field(form, 'Account number'), '000123456789');
    await user.type(field(form, 'ABA routing number'), '021000021');
    await user.tab();

    await waitFor(() => expect(JSON.stringify({ ...sessionStorage })).toContain('Acme Payroll'));
    const stored = JSON.stringify({ ...sessionStorage, ...localStorage });
    expect(stored).not.toContain('000123456789');
    expect(stored).not.toContain('021000021');
  });
});
