import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_PREFIX, claimFormDrafts, clearAllFormDrafts } from './form-drafts.ts';
import { usePersistentFormDraft } from './use-persistent-form-draft.ts';

interface Values {
  email: string;
  note: string;
  password: string;
}

function DraftForm({ draftKey = '/staff#create' }: { draftKey?: string }) {
  const form = useForm<Values>({ defaultValues: { email: '', note: '', password: '' } });
  const { restored, clearDraft } = usePersistentFormDraft(draftKey, form, {
    exclude: ['password'],
  });
  return (
    <form
      onSubmit={form.handleSubmit(() => {
        clearDraft();
        form.reset();
      })}
    >
      {restored ? <p>Draft restored</p> : null}
      <label htmlFor="email">Email</label>
      <input id="email" {...form.register('email')} />
      <label htmlFor="note">Note</label>
      <input id="note" {...form.register('note')} />
      <label htmlFor="password">Password</label>
      <input id="password" type="password" {...form.register('password')} />
      <button type="submit">Save</button>
    </form>
  );
}

const stored = (key = '/staff#create') => sessionStorage.getItem(`${DRAFT_PREFIX}${key}`);

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

describe('usePersistentFormDraft', () => {
  it('saves what is typed, without excluded secrets, and restores it on the next mount', async () => {
    const user = userEvent.setup();
    const first = render(<DraftForm />);
    expect(screen.queryByText('Draft restored')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Note'), 'half done');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');

    expect(JSON.parse(stored() ?? '{}')).toEqual({ email: 'ada@example.com', note: 'half done' });
    expect(stored()).not.toContain('correct horse');

    // The session expires: the page goes away, the member signs in, comes back.
    first.unmount();
    render(<DraftForm />);
    expect(screen.getByText('Draft restored')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Note')).toHaveValue('half done');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('keeps drafts of different forms apart', async () => {
    const user = userEvent.setup();
    render(<DraftForm draftKey="/a#form" />);
    await user.type(screen.getByLabelText('Note'), 'for a');
    cleanup();
    render(<DraftForm draftKey="/b#form" />);
    expect(screen.getByLabelText('Note')).toHaveValue('');
    expect(stored('/b#form')).toBeNull();
    expect(JSON.parse(stored('/a#form') ?? '{}')).toMatchObject({ note: 'for a' });
  });

  it('forgets the draft once the form is submitted', async () => {
    const user = userEvent.setup();
    render(<DraftForm />);
    await user.type(screen.getByLabelText('Note'), 'sent');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(stored()).toBeNull();
    cleanup();
    render(<DraftForm />);
    expect(screen.getByLabelText('Note')).toHaveValue('');
  });

  it('ignores a corrupt draft', () => {
    sessionStorage.setItem(`${DRAFT_PREFIX}/staff#create`, '{not json');
    render(<DraftForm />);
    expect(screen.getByLabelText('Note')).toHaveValue('');
    expect(screen.queryByText('Draft restored')).not.toBeInTheDocument();
  });

  it('forgets every draft, and nothing else, when the member signs out', async () => {
    const user = userEvent.setup();
    sessionStorage.setItem('unrelated', 'kept');
    render(<DraftForm />);
    await user.type(screen.getByLabelText('Note'), 'private');
    expect(stored()).not.toBeNull();
    clearAllFormDrafts();
    expect(stored()).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it("keeps a member's drafts for that member only", async () => {
    const user = userEvent.setup();
    claimFormDrafts('s_ada');
    render(<DraftForm />);
    await user.type(screen.getByLabelText('Note'), 'ada typed this');
    claimFormDrafts('s_ada');
    expect(stored()).toContain('ada typed this');
    claimFormDrafts('s_bob');
    expect(stored()).toBeNull();
  });
});
