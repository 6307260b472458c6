import type { Page } from '@playwright/test';
import { expect, signOut, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { DESKTOP_ONLY } from './widths.ts';

// A member registers a passkey on the account page and signs in with it as
// the second step, in Chromium with a virtual authenticator (the DevTools
// protocol's WebAuthn domain). Chromium refuses WebAuthn on an IP origin, so
// the member's browser opens the console as http://localhost:<port>: the
// server binds passkeys to the host name the browser used, and answers for
// localhost as for its loopback listen address (http/public-origin.ts).
// The member is the story's own, made through the staff API by the signed-in
// admin, so no other story's sign-ins or passkeys touch it.

const PASSWORD = 'a passkey story passphrase';

// The viewer is made for the whole organization, which only an admin of the whole organization may grant.
test.use({ role: 'orgAdmin' });

async function makeViewer(page: Page, baseURL: string, width: number): Promise<string> {
  const origin = new URL(baseURL).origin;
  const { csrfToken } = (await (await page.request.get('/auth/session')).json()) as {
    csrfToken: string;
  };
  const email = `passkey-${width}-${crypto.randomUUID()}@example.com`;
  const res = await page.request.post('/api/console/staff/', {
    headers: { Origin: origin, 'X-CSRF-Token': csrfToken },
    data: { email, name: `Passkey member ${width}`, role: 'viewer' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { setup } = (await res.json()) as { setup: { token: string } };
  const setUp = await page.request.post('/auth/setup', {
    headers: { Origin: origin },
    data: { token: setup.token, password: PASSWORD },
  });
  expect(setUp.status(), await setUp.text()).toBe(200);
  return email;
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a member registers a passkey, signs in with it after the password, and removes it', async ({
      page,
      browser,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const email = await makeViewer(page, baseURL ?? '', width);
      const local = new URL(baseURL ?? '');
      local.hostname = 'localhost';
      const context = await browser.newContext({
        baseURL: local.origin,
        viewport: { width, height: 900 },
      });
      const member = await context.newPage();
      const cdp = await context.newCDPSession(member);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });

      // A viewer needs no second factor: the password alone signs in.
      await signInWithPassword(member, email);
      await expect(member.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

      await member.goto('/account');
      await expectHydrated(member);
      const panel = member.getByRole('region', { name: 'Passkeys' });
      await panel.getByRole('button', { name: 'Add a passkey' }).click();
      const add = member.getByRole('form', { name: 'Add a passkey' });
      await add.getByLabel('Name').fill('Story laptop');
      await add.getByLabel('Current password').fill(PASSWORD);
      await add.getByRole('button', { name: 'Create passkey' }).click();
      await expect(panel.getByText('Your passkey “Story laptop” was added.')).toBeVisible();
      await expect(panel.getByRole('list', { name: 'Your passkeys' })).toContainText(
        'Story laptop',
      );
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);

      // Signed out, the password now leads to the passkey step.
      await signOut(member);
      await signInWithPassword(member, email);
      await expect(member.getByRole('heading', { name: 'Use your passkey' })).toBeVisible();
      await member.getByRole('button', { name: 'Use your passkey' }).click();
      await expect(member.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

      // Removed with the password: it no longer signs in.
      await member.goto('/account');
      await expectHydrated(member);
      await panel.getByRole('button', { name: 'Remove passkey Story laptop' }).click();
      const remove = member.getByRole('form', { name: 'Remove “Story laptop”' });
      await remove.getByLabel('Current password').fill(PASSWORD);
      await remove.getByRole('button', { name: 'Remove passkey' }).click();
      await expect(panel.getByText('Your passkey “Story laptop” was removed.')).toBeVisible();
      await expect(panel.getByText('No passkey yet.')).toBeVisible();
      await expectNoAxeViolations(member);

      // The next sign-in is the password alone again.
      await signOut(member);
      await signInWithPassword(member, email);
      await expect(member.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
      await context.close();
    });
  });
}
