import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormActions, FormCard, SubmitButton } from './form-card.tsx';

afterEach(cleanup);

describe('FormCard', () => {
  it('is a form named by its heading, announcing a refusal about the whole form', async () => {
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <FormCard
        title="Add a staff member"
        onSubmit={onSubmit}
        error="The member could not be added"
      >
        <FormActions>
          <SubmitButton>Add staff member</SubmitButton>
        </FormActions>
      </FormCard>,
    );
    const form = screen.getByRole('form', { name: 'Add a staff member' });
    expect(form).toHaveAttribute('novalidate');
    expect(screen.getByRole('heading', { name: 'Add a staff member', level: 2 })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('The member could not be added');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add staff member' }));
    expect(onSubmit).toHaveBeenCalledOnce();
  });

  it('shows no alert without an error, and can keep its heading for screen readers only', () => {
    render(
      <FormCard title="Sign-in form" titleHidden frame="plain" onSubmit={() => undefined}>
        <input aria-label="Email" />
      </FormCard>,
    );
    expect(screen.getByRole('form', { name: 'Sign-in form' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign-in form' })).toHaveClass('sr-only');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('without onSubmit is a section, and focusTitle puts focus on its heading', () => {
    render(
      <FormCard title="Review the transfer before sending" focusTitle>
        <p>rows</p>
      </FormCard>,
    );
    expect(screen.queryByRole('form')).toBeNull();
    expect(
      screen.getByRole('region', { name: 'Review the transfer before sending' }),
    ).toBeVisible();
    expect(
      screen.getByRole('heading', { name: 'Review the transfer before sending' }),
    ).toHaveFocus();
  });
});

describe('SubmitButton', () => {
  it('is disabled and says so while its request is in flight', () => {
    const { rerender } = render(
      <SubmitButton pendingLabel="Adding…">Add staff member</SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Add staff member' })).toBeEnabled();
    rerender(
      <SubmitButton pending pendingLabel="Adding…">
        Add staff member
      </SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Adding…' })).toBeDisabled();
    expect(screen.getByRole('button')).toHaveAttribute('type', 'submit');
  });

  it('focuses its heading once when it appears, never again as the form re-renders', async () => {
    function Typed() {
      const [value, setValue] = useState('');
      return (
        <FormCard title="Set up a second factor" focusTitle onSubmit={() => undefined}>
          <input aria-label="Code" value={value} onChange={(e) => setValue(e.target.value)} />
        </FormCard>
      );
    }
    render(<Typed />);
    expect(screen.getByRole('heading', { name: 'Set up a second factor' })).toHaveFocus();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Code'), '123456');
    expect(screen.getByLabelText('Code')).toHaveValue('123456');
    expect(screen.getByLabelText('Code')).toHaveFocus();
  });
});
