import { expect, type Page } from '@playwright/test';
import { expectHydrated } from './keyboard.ts';
import type { MemberKey } from './worker-members.ts';

/**
 * The signed-in pages a whole-app browser test walks, each with what shows it
 * is ready and who reads it: the worker's admin, held to its sub-organization,
 * unless the page is one only an admin of the whole organization reads.
 */
export const SIGNED_IN_PAGES = [
  { path: '/', ready: { role: 'heading', name: 'Overview' } },
  { path: '/vaults', ready: { role: 'table', name: 'Vaults' } },
  { path: '/transactions', ready: { role: 'table', name: 'Transactions' } },
  { path: '/transactions/new', ready: { role: 'heading', name: 'New transaction' } },
  { path: '/approvals', ready: { role: 'heading', name: 'Approvals' } },
  { path: '/bank-accounts', ready: { role: 'table', name: 'Bank accounts' } },
  { path: '/bank-accounts/new', ready: { role: 'heading', name: /bank account/i } },
  { path: '/convert', ready: { role: 'heading', name: 'Convert' } },
  { path: '/contacts', ready: { role: 'table', name: 'Contacts' } },
  { path: '/contacts/new', ready: { role: 'heading', name: 'Propose a contact' } },
  { path: '/ledger', ready: { role: 'heading', name: 'Ledger' } },
  { path: '/ledger/statement', ready: { role: 'heading', name: 'Statement' } },
  { path: '/audit', ready: { role: 'table', name: 'Audit log' }, member: 'orgAdmin' },
  { path: '/staff', ready: { role: 'heading', name: 'Staff' } },
  { path: '/policies', ready: { role: 'heading', name: 'Approval policies' } },
] as const;

export type SignedInPage = (typeof SIGNED_IN_PAGES)[number];

/**
 * The signed-in pages in walks of at most `size`, each walk read by one
 * member: a story walks one in one browser page, so the app is loaded and
 * the member's session handed over once per walk, not once per page (each
 * page alone in a story of its own spent more on that than on its checks),
 * and two workers share the walks.
 */
export function pageWalks(size: number): Array<{ member: MemberKey; pages: SignedInPage[] }> {
  const byMember = new Map<MemberKey, SignedInPage[]>();
  for (const entry of SIGNED_IN_PAGES) {
    const member: MemberKey = 'member' in entry ? entry.member : 'admin';
    byMember.set(member, [...(byMember.get(member) ?? []), entry]);
  }
  return [...byMember].flatMap(([member, pages]) =>
    Array.from({ length: Math.ceil(pages.length / size) }, (_, i) => ({
      member,
      pages: pages.slice(i * size, (i + 1) * size),
    })),
  );
}

/**
 * Opens `entry` the way a member moves between pages: with the main
 * navigation's link where it is on screen (a client navigation: the app
 * stays loaded and reads only the page's data), else at its address. Ready
 * when the page's landmark shows and nothing on it is still loading
 * (`aria-busy`), so what is checked next is the page with its data.
 */
export async function openPage(page: Page, entry: SignedInPage, search = ''): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Main' }).locator(`a[href="${entry.path}"]`);
  if (!search && page.url() !== 'about:blank' && (await link.isVisible())) {
    await expectHydrated(page);
    await link.click();
    await expect(page).toHaveURL((url) => url.pathname === entry.path);
  } else {
    await page.goto(`${entry.path}${search}`);
  }
  await expect(page.getByRole(entry.ready.role, { name: entry.ready.name }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}
