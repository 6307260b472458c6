import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { RenderedAtProvider, useNow } from './use-now.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const UPDATED_AT = Date.UTC(2026, 10, 24, 12, 0, 0);

function Freshness() {
  const seconds = Math.round((useNow(1000) - UPDATED_AT) / 1000);
  return <p data-testid="age">{seconds < 2 ? 'just now' : `${seconds} s ago`}</p>;
}

it("renders from the server's instant, hydrates to the same text, then counts on the browser's clock", async () => {
  // The server renders a second after the data was read.
  vi.setSystemTime(UPDATED_AT + 1000);
  const html = renderToString(
    <RenderedAtProvider at={UPDATED_AT + 1000}>
      <Freshness />
    </RenderedAtProvider>,
  );
  expect(html).toContain('just now');

  // The browser takes it over 40 seconds later (a slow phone, a loaded machine).
  vi.setSystemTime(UPDATED_AT + 41_000);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  const recoverable = vi.fn();
  let root: Root | undefined;
  await act(async () => {
    root = hydrateRoot(
      container,
      <RenderedAtProvider at={UPDATED_AT + 1000}>
        <Freshness />
      </RenderedAtProvider>,
      { onRecoverableError: recoverable },
    );
  });
  // No mismatch: hydration wrote the server's text; the browser's clock came after.
  expect(recoverable).not.toHaveBeenCalled();
  expect(screen.getByTestId('age')).toHaveTextContent('41 s ago');
  await act(async () => {
    vi.advanceTimersByTime(3000);
  });
  expect(screen.getByTestId('age')).toHaveTextContent('44 s ago');
  act(() => root?.unmount());
  container.remove();
});

it("counts on the browser's own clock from the start when the browser renders alone", () => {
  vi.setSystemTime(UPDATED_AT + 10_000);
  render(<Freshness />);
  expect(screen.getByTestId('age')).toHaveTextContent('10 s ago');
});
