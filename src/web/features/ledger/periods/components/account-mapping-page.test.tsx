import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalMapping } from '#contract/ledger-periods.ts';
import { installFakeApi, json, pagedList } from '../../../../test/fake-api.ts';
import { renderWithRouter } from '../../../../test/render.tsx';
import { AccountMappingPage } from './account-mapping-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const name = (n: number) => `Vault ${String(n).padStart(3, '0')}`;
const VAULTS = Array.from({ length: 120 }, (_, i) => ({
  id: `vault-${i + 1}`,
  vaultName: name(i + 1),
}));

const saved: JournalMapping = {
  vaults: [
    { vaultId: 'vault-110', asset: null, account: '1110' },
    { vaultId: 'vault-2', asset: 'ETH', account: '1002-ETH' },
  ],
  categories: {
    transfers: '1900',
    networkFees: '6100',
    tradeFees: null,
    stakingRewards: '4200',
    openingBalances: '3000',
  },
};

function fakeApi() {
  const sent: JournalMapping[] = [];
  const api = installFakeApi({
    '/api/console/ledger/journal/mapping/': async (_url, init) => {
      if (init.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as JournalMapping;
        sent.push(body);
        return json({ mapping: body, updatedAt: '2030-01-01T00:00:00.000Z' });
      }
      return json({ mapping: saved, updatedAt: null });
    },
    '/api/external/vaults/': (url) => {
      const wanted = url.searchParams.get('vaultName');
      return pagedList(wanted ? VAULTS.filter((v) => v.vaultName.includes(wanted)) : VAULTS, url);
    },
  });
  return { sent, ...api };
}

describe('the journal account mapping page', () => {
  it('pages through every vault (not only the first hundred), keeps what was typed on another page, and sends it with the saved codes', async () => {
    const user = userEvent.setup();
    const { sent } = fakeApi();
    renderWithRouter(<AccountMappingPage />);

    const first = await screen.findByLabelText(`${name(3)} (every asset)`);
    expect(screen.queryByLabelText(`${name(51)} (every asset)`)).toBeNull();
    await user.type(first, '1003');

    const next = screen.getByRole('button', { name: /Next page/ });
    await user.click(next);
    await screen.findByLabelText(`${name(51)} (every asset)`);
    await user.click(screen.getByRole('button', { name: /Next page/ }));
    // Vault 110, past the first hundred, with the code saved for it.
    expect(await screen.findByLabelText(`${name(110)} (every asset)`)).toHaveValue('1110');
    expect(screen.getByText('Page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Next page/ })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: /Previous page/ }));
    await user.click(screen.getByRole('button', { name: /Previous page/ }));
    expect(await screen.findByLabelText(`${name(3)} (every asset)`)).toHaveValue('1003');

    await user.click(screen.getByRole('button', { name: 'Save the mapping' }));
    expect(await screen.findByText('The mapping is saved.')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.vaults).toEqual(
      expect.arrayContaining([
        { vaultId: 'vault-2', asset: 'ETH', account: '1002-ETH' },
        { vaultId: 'vault-3', asset: null, account: '1003' },
        { vaultId: 'vault-110', asset: null, account: '1110' },
      ]),
    );
    expect(sent[0]?.vaults).toHaveLength(3);
  });

  it('finds a vault by name', async () => {
    const user = userEvent.setup();
    fakeApi();
    renderWithRouter(<AccountMappingPage />);
    await screen.findByLabelText(`${name(1)} (every asset)`);
    await user.type(screen.getByLabelText('Vault name'), 'Vault 117');
    await user.click(screen.getByRole('button', { name: 'Find vaults' }));
    expect(await screen.findByLabelText(`${name(117)} (every asset)`)).toBeInTheDocument();
    expect(screen.queryByLabelText(`${name(1)} (every asset)`)).toBeNull();
  });
});
