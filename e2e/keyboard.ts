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
