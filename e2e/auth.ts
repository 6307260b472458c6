import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { DemoAccountList, type DemoAccount, type StaffRole } from '../src/contract/auth.ts';

/**
 * Signing in for browser tests. The demo staff (one per role) come from the
 * sandbox's GET /auth/demo-accounts, as a person would read them on the
 * sign-in page. `signIn` goes through the API: page.request shares the
 * browser context's cookie jar, so the HttpOnly session cookie it receives
 * is the page's too. A server without staff sign-in (/auth/session 404) is
 * used as it is.
 */
export type { StaffRole };

export async function demoAccount(
  request: APIRequestContext,
  role: StaffRole,
): Promise<DemoAccount> {
  const response = await request.get('/auth/demo-accounts');
  expect(response.ok(), 'the sandbox lists its demo accounts').toBe(true);
  const { results } = DemoAccountList.parse(await response.json());
  const account = results.find((a) => a.role === role);
  if (!account) throw new Error(`No demo account with the ${role} role`);
  return account;
}

export async function signIn(page: Page, role: StaffRole, baseURL: string): Promise<void> {
  const probe = await page.request.get('/auth/session');
  if (probe.status() === 404) return;
  const { email, password } = await demoAccount(page.request, role);
  // A browser sends Origin on a POST; the server refuses a sign-in without it.
  const response = await page.request.post('/auth/login', {
    data: { email, password },
    headers: { Origin: new URL(baseURL).origin },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** `test` for pages behind sign-in: each test starts signed in as `role` (admin unless set). */
export const test = base.extend<{ role: StaffRole; signedIn: void }>({
  role: ['admin', { option: true }],
  signedIn: [
    async ({ page, role, baseURL }, use) => {
      await signIn(page, role, baseURL ?? '');
      await use();
    },
    { auto: true },
  ],
});

export { expect };
