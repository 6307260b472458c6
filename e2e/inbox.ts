import { expect, type Locator, type Page } from '@playwright/test';
import { expectHydrated } from './keyboard.ts';

/**
 * Opens an inbox row's item page with the mouse, as a member does, once the
 * inbox page is live. The inbox is rendered on the server and shown before
 * its script has taken the page over, so waiting for that (expectHydrated)
 * keeps the click on the page the test means (the client's navigation, not
 * the server-rendered link's). Then the address must leave the inbox: a
 * click that navigated nowhere fails here, by name, instead of as a heading
 * that never arrived.
 */
export async function openInboxItem(row: Locator): Promise<void> {
  const page = row.page();
  await expectHydrated(page);
  await row.getByRole('link', { name: /Review and decide/ }).click();
  await expect(page, 'the inbox row’s link took the member to the item’s page').not.toHaveURL(
    /\/approvals(\?|$)/,
  );
}

/** The main navigation's link to the approvals inbox. */
export const approvalsLink = (page: Page): Locator =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Approvals/ });

/**
 * Whether the inbox badge shows `count` as the navigation writes it: nothing
 * at 0, the number up to 99, "99+" beyond. The count is everyone's items
 * the member may decide, so stories compare it with what the server answers
 * at that moment, never with "one more than before".
 */
export async function badgeShows(page: Page, count: number): Promise<boolean> {
  const badge = approvalsLink(page).getByTestId('nav-count');
  if (count === 0) return (await badge.count()) === 0;
  return (
    (await badge.count()) === 1 &&
    (await badge.textContent()) === (count > 99 ? '99+' : String(count))
  );
}

/**
 * Waits for a bulk approval's dialog to say all `count` items were approved.
 * The dialog approves them one after another, each a decision of its own (a
 * card read and signed, the server's checks), so each item gets the time
 * one step of a story gets (`expect`'s 10 s, playwright.config.ts): one
 * bound for the whole batch failed batches of two and three on a shared
 * machine while every item was still moving.
 */
export async function expectBulkApproved(dialog: Locator, count: number): Promise<void> {
  await expect(dialog.getByRole('status')).toHaveText(`Done: ${count} approved.`, {
    timeout: count * 10_000,
  });
}
