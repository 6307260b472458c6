import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Presses Tab until `target` has focus: how a keyboard user reaches a
 * control, without the test knowing how many stops lie before it.
 */
export async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/**
 * Gives `target` focus once it is live. A server-rendered page shows its
 * controls disabled until the browser has taken it over (lib/use-hydrated.ts
 * in the SPA); a disabled control cannot take focus, so a key pressed at once
 * would land on the page instead.
 */
export async function focusLive(target: Locator): Promise<void> {
  await expect(target).toBeEnabled();
  await target.focus();
  await expect(target).toBeFocused();
}

/**
 * Waits until the browser has taken a signed-in page over (hydration): the
 * header's first control is live — Sign out from 1280 px, the Menu button
 * (which hides Sign out) below. Each is held disabled until then, and only
 * the one shown at this width is in the accessibility tree.
 */
export async function expectHydrated(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /^(Sign out|Menu)\b/ })).toBeEnabled();
}
