import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BankAccount } from '#contract/bank-account.ts';
import { BankAccountFields } from './bank-account-fields.tsx';

afterEach(cleanup);

/** The value shown beside a label in the definition list. */
function valueOf(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

const sepa: BankAccount = {
  id: 'ba_sepa',
  status: 'PENDING',
  paymentMethod: 'SEPA',
  accountName: 'Acme GmbH',
  // As the server sends it to a session: masked.
  accountNumber: '•••• 3000',
  routingNumber: null,
  bankName: 'Commerzbank',
  country: 'DE',
  createdById: 'staff_ivan',
};

const swift: BankAccount = {
  id: 'ba_swift',
  status: 'APPROVED',
  paymentMethod: 'SWIFT',
  accountName: 'Acme Ltd',
  accountNumber: '•••• 6819',
  routingNumber: '•••• GB2L',
  bankName: 'NatWest',
  streetLine: '250 Bishopsgate',
  city: 'London',
  postalCode: 'EC2M 4AA',
  country: 'GB',
  subOrgId: 'so_uk',
};

describe('BankAccountFields', () => {
  it('shows the numbers masked as the server sent them, under the rail’s labels', () => {
    render(<BankAccountFields account={swift} subOrgName="Treasury UK" />);
    expect(valueOf('Account number or IBAN')).toHaveTextContent('•••• 6819');
    expect(valueOf('BIC (SWIFT code)')).toHaveTextContent('•••• GB2L');
    expect(valueOf('Account number or IBAN').querySelector('[data-revealed]')).toBeNull();
    expect(valueOf('Sub-organization')).toHaveTextContent('Treasury UK');
    expect(valueOf('Status')).toHaveTextContent('Approved');
  });

  it('shows revealed numbers in full, an IBAN grouped by four', () => {
    render(
      <BankAccountFields
        account={swift}
        revealed={{ accountNumber: 'GB29NWBK60161331926819', routingNumber: 'NWBKGB2L' }}
      />,
    );
    expect(valueOf('Account number or IBAN')).toHaveTextContent('GB29 NWBK 6016 1331 9268 19');
    expect(valueOf('BIC (SWIFT code)')).toHaveTextContent('NWBKGB2L');
    expect(valueOf('Account number or IBAN').querySelector('[data-revealed]')).not.toBeNull();
  });

  it('has no routing row for a SEPA account (an IBAN is all it has), and says who proposed it', () => {
    render(<BankAccountFields account={sepa} proposedBy="Ivan Initiator" />);
    expect(valueOf('IBAN')).toHaveTextContent('•••• 3000');
    expect(screen.queryByText('Routing number', { selector: 'dt' })).not.toBeInTheDocument();
    expect(valueOf('Proposed by')).toHaveTextContent('Ivan Initiator');
    expect(valueOf('Sub-organization')).toHaveTextContent('None (the whole organization)');
    // Blank fields say so, rather than vanish.
    expect(within(valueOf('City')).getByText('—')).toBeInTheDocument();
  });

  it('puts the reveal control beside the account number', () => {
    render(
      <BankAccountFields account={sepa} numberActions={<button>Reveal full numbers</button>} />,
    );
    expect(
      within(valueOf('IBAN')).getByRole('button', { name: 'Reveal full numbers' }),
    ).toBeInTheDocument();
  });
});
