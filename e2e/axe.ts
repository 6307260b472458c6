import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Fails the test with the list of WCAG A/AA violations on the page as it stands. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Legacy mode runs axe in the page itself. The default finishes every
  // scan in a new blank page, made for cross-origin frames the console
  // never has; that page cost seconds a scan on a loaded machine.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}
