import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it, vi } from 'vitest';
import { DayInput } from './day-input.tsx';

afterEach(cleanup);

const field = (onDayChange = () => {}) => (
  <>
    <label htmlFor="from">From</label>
    <DayInput id="from" value="2026-11-02" onDayChange={onDayChange} />
  </>
);

it('is served as a disabled text field with the same day, and hydrates into a date field', async () => {
  const html = renderToString(field());
  expect(html).toContain('type="text"');
  expect(html).toContain('value="2026-11-02"');
  expect(html).toContain('placeholder="YYYY-MM-DD"');
  expect(html).not.toContain('type="date"');
  expect(html).toContain('disabled=""');

  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const recoverable = vi.fn();
  await act(async () => {
    hydrateRoot(container, field(), { onRecoverableError: recoverable });
  });
  const input = screen.getByLabelText('From');
  expect(input).toHaveAttribute('type', 'date');
  expect(input).toHaveValue('2026-11-02');
  expect(input).toBeEnabled();
  expect(input).not.toHaveAttribute('placeholder');
  expect(recoverable).not.toHaveBeenCalled();
  container.remove();
});

it('is a date field from the start when the browser renders it', () => {
  render(field());
  expect(screen.getByLabelText('From')).toHaveAttribute('type', 'date');
});
