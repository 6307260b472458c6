import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Panel } from './panel.tsx';

afterEach(cleanup);

it('is a region named by its heading, each panel with its own heading id', () => {
  render(
    <>
      <Panel title="Details">
        <p>facts</p>
      </Panel>
      <Panel title="Awaiting approval" tone="attention">
        <p>decide</p>
      </Panel>
    </>,
  );
  const details = screen.getByRole('region', { name: 'Details' });
  expect(details).toHaveTextContent('facts');
  expect(screen.getByRole('heading', { name: 'Details', level: 2 })).toBeVisible();
  const decision = screen.getByRole('region', { name: 'Awaiting approval' });
  expect(decision).toHaveTextContent('decide');
  expect(decision.getAttribute('aria-labelledby')).not.toBe(
    details.getAttribute('aria-labelledby'),
  );
});
