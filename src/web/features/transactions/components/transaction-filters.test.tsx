import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransactionSearchFilters } from '../search.ts';
import { TransactionFilters } from './transaction-filters.tsx';

afterEach(cleanup);

function setup(value: TransactionSearchFilters = {}) {
  const onChange = vi.fn();
  const onClear = vi.fn();
  const view = render(
    <TransactionFilters
      value={value}
      vaultOptions={[
        { value: 'vault_ops', label: 'Operations' },
        { value: 'vault_treasury', label: 'Treasury' },
      ]}
      assetOptions={[
        { value: 'ETH', label: 'ETH' },
        { value: 'USDC', label: 'USDC' },
      ]}
      onChange={onChange}
      onClear={onClear}
    />,
  );
  return { onChange, onClear, ...view };
}

describe('TransactionFilters', () => {
  it('labels every control', () => {
    setup();
    for (const name of ['Status', 'Category', 'Asset', 'Vault', 'From', 'To', 'External ID']) {
      expect(screen.getByLabelText(name, { exact: true })).toBeInTheDocument();
    }
  });

  it('applies a select as soon as it changes, and clears it with the "All" option', async () => {
    const user = userEvent.setup();
    const { onChange, rerender } = setup();
    await user.selectOptions(screen.getByLabelText('Status'), 'COMPLETED');
    expect(onChange).toHaveBeenLastCalledWith({ status: 'COMPLETED' });

    await user.selectOptions(screen.getByLabelText('Vault'), 'Treasury');
    expect(onChange).toHaveBeenLastCalledWith({ vaultId: 'vault_treasury' });

    rerender(
      <TransactionFilters
        value={{ category: 'STAKE' }}
        vaultOptions={[]}
        assetOptions={[]}
        onChange={onChange}
        onClear={vi.fn()}
      />,
    );
    await user.selectOptions(screen.getByLabelText('Category'), 'All categories');
    expect(onChange).toHaveBeenLastCalledWith({ category: undefined });
  });

  it("sets From and To as days, which the list reads in the member's zone (named in the hint)", () => {
    const { onChange } = setup();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });
    expect(onChange).toHaveBeenLastCalledWith({ createdAtGte: '2025-03-01' });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-31' } });
    expect(onChange).toHaveBeenLastCalledWith({ createdAtLte: '2025-03-31' });
    // Outside the signed-in layout the zone is UTC.
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('Days in UTC, both included');
  });

  it('waits for a complete year before filtering by day', () => {
    const { onChange } = setup();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '0202-03-01' } });
    expect(onChange).not.toHaveBeenCalled();
  });

  it('refuses a From after To with an error naming the rule, keeping the day typed', () => {
    const { onChange } = setup({ createdAtLte: '2025-03-10' });
    const from = screen.getByLabelText('From');
    fireEvent.change(from, { target: { value: '2025-03-20' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(from).toHaveValue('2025-03-20');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'From must be on or before To (2025-03-10).',
    );
    expect(from).toHaveAccessibleDescription(expect.stringContaining('must be on or before To'));

    fireEvent.change(from, { target: { value: '2025-03-05' } });
    expect(onChange).toHaveBeenLastCalledWith({ createdAtGte: '2025-03-05' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('names a crossed range held in the URL instead of listing nothing in silence', () => {
    setup({ createdAtGte: '2025-03-20', createdAtLte: '2025-03-10' });
    expect(screen.getByRole('alert')).toHaveTextContent('To is before From: nothing can match.');
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the days held in the URL', () => {
    setup({ createdAtGte: '2025-03-01', createdAtLte: '2025-03-31' });
    expect(screen.getByLabelText('From')).toHaveValue('2025-03-01');
    expect(screen.getByLabelText('To')).toHaveValue('2025-03-31');
  });

  it('applies External ID on Enter, not on every key', async () => {
    const user = userEvent.setup();
    const { onChange } = setup();
    await user.type(screen.getByLabelText('External ID'), '  order-42 ');
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledExactlyOnceWith({ externalId: 'order-42' });
  });

  it('offers a reset only when a filter is set', async () => {
    const user = userEvent.setup();
    setup();
    expect(screen.queryByRole('button', { name: 'Reset filters' })).not.toBeInTheDocument();
    cleanup();
    const { onClear } = setup({ asset: 'ETH' });
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(onClear).toHaveBeenCalled();
  });

  it('keeps a vault from the URL selectable before the vault list knows it', () => {
    setup({ vaultId: 'vault_unknown' });
    expect(screen.getByLabelText('Vault')).toHaveValue('vault_unknown');
  });
});
