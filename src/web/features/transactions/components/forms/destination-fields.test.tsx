import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { DestinationFields } from './destination-fields.tsx';
import { destinationDefaults } from './destination-schema.ts';
import type { PickerData } from './picker-data.ts';

afterEach(cleanup);

const EXCHANGE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OPS = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

const data: PickerData = {
  vaults: [
    { id: 'v-treasury', vaultName: 'Treasury', wallets: [] },
    { id: 'v-ops', vaultName: 'Operations', wallets: [{ blockchain: 'ETHEREUM', address: OPS }] },
  ],
  balances: new Map(),
  assets: [],
  contacts: [
    { id: 'c1', name: 'Exchange', status: 'APPROVED', blockChain: 'ETHEREUM', address: EXCHANGE },
  ],
  loading: false,
  error: null,
};

const DEFAULTS = {
  ...destinationDefaults(),
  destinationKind: 'EXTERNAL_ADDRESS' as const,
  sourceVaultId: 'v-treasury',
  blockChain: 'ETHEREUM',
  asset: 'ETH',
};

function Destination() {
  const form = useForm({ defaultValues: DEFAULTS });
  const values = { ...DEFAULTS, ...useWatch({ control: form.control }) };
  return (
    <DestinationFields form={form} fieldId={(name) => `f-${name}`} values={values} data={data} />
  );
}

describe('the typed destination address', () => {
  it("names our vault, and warns of a lookalike of a contact's address, as part of the field's description", async () => {
    const user = userEvent.setup();
    render(<Destination />);
    const field = screen.getByLabelText('Destination address');
    await user.type(field, OPS.toLowerCase());
    expect(field).toHaveAccessibleDescription(/This is the address of our vault "Operations"/);

    await user.clear(field);
    await user.type(field, `0x5aae${'0'.repeat(32)}eaed`);
    expect(field).toHaveAccessibleDescription(
      /looks like the address of contact "Exchange" \(0x5aAe…eAed\) but is not the same address/,
    );
    expect(screen.getByText(/address poisoning/)).toHaveAttribute('data-tone', 'warning');

    await user.clear(field);
    await user.type(field, `0x${'12'.repeat(20)}`);
    expect(field).toHaveAccessibleDescription(
      'An Ethereum address, checked before anything is sent.',
    );
  });
});
