import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from './bound-fields.tsx';

afterEach(cleanup);

function MemoForm() {
  const form = useForm<{ memo: string }>({ defaultValues: { memo: '' } });
  return (
    <TextField
      form={form}
      fieldId={(name) => `f-${name}`}
      name="memo"
      label="Memo (optional)"
      maxChars={10}
    />
  );
}

describe('TextField with a character limit', () => {
  it('counts toward the limit, read with the field, and says by how much it is over', async () => {
    const user = userEvent.setup();
    render(<MemoForm />);
    const memo = screen.getByLabelText('Memo (optional)');
    expect(memo).toHaveAccessibleDescription('0 of 10 characters.');
    await user.type(memo, 'rent');
    expect(memo).toHaveAccessibleDescription('4 of 10 characters.');
    await user.type(memo, ' for march');
    expect(screen.getByText('14 of 10 characters: 4 too many.')).toBeInTheDocument();
  });
});
