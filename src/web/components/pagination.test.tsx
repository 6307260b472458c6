import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { CursorPagination } from './pagination.tsx';

afterEach(cleanup);

const noop = () => undefined;

it('names the page whose rows are on screen: a page still loading is not yet "Page 3"', () => {
  const props = { label: 'Transactions pages', hasPrevious: true, hasNext: true };
  const { rerender } = render(
    <CursorPagination {...props} page={3} busy onPrevious={noop} onNext={noop} />,
  );
  const nav = screen.getByRole('navigation', { name: 'Transactions pages' });
  expect(nav).toHaveTextContent('Loading page 3…');
  expect(screen.queryByText('Page 3', { exact: true })).toBeNull();
  expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

  rerender(<CursorPagination {...props} page={3} busy={false} onPrevious={noop} onNext={noop} />);
  expect(screen.getByText('Page 3', { exact: true })).toBeVisible();
  expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
});
