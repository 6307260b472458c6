import type { Browser, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, signInAs, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveOnItsPage } from './held-items.ts';
import { tabTo, expectHydrated } from './keyboard.ts';

// An approver proposed on the staff page by the worker's admin and
// approved by a second admin chooses their password with the set-up link,
// then signs in for the first time: sets up a second factor by keyboard, from
// the key shown as text, then signs in with a code and once with a recovery
// code. Codes are computed here with the library the server uses, from the key
// on screen.

const PASSWORD = 'an approver passphrase';

/** The code of `secret` for the moment `offsetSeconds` from now (as an app on a phone shows it). */
function codeOf(secret: string, offsetSeconds = 0): string {
  return new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  }).generate({ timestamp: Date.now() + offsetSeconds * 1000 });
}

async function typeInto(page: Page, label: string | RegExp, text: string) {
  await tabTo(page, page.getByLabel(label));
  await page.keyboard.type(text);
}

/**
 * Email and password by keyboard, up to the second step: on the sign-in page a
 * sign-out left the page on, loaded only the first time; or, with `then`, on
 * the sign-in page that leads there (the account page, where the factor's
 * state shows, instead of the overview, which reads every vault's balances).
 */
async function passwordStep(page: Page, email: string, then?: string) {
  if (then) await page.goto(`/login?redirect=${encodeURIComponent(then)}`);
  else if (new URL(page.url()).pathname !== '/login') await page.goto('/login');
  await typeInto(page, 'Email', email);
  await typeInto(page, 'Password', PASSWORD);
  await page.keyboard.press('Enter');
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function newPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseURL ?? '' });
  return context.newPage();
}

test('an approver sets up a second factor at first sign-in, then signs in with a code and a recovery code', async ({
  page,
  members,
  browser,
  baseURL,
  world,
}) => {
  // Three sign-ins, each landing on the overview (a server-rendered page reading every vault's
  // balances): 60 s ran out at the last step on a machine loaded 13–22 on 2 cores.
  test.setTimeout(90_000);
  const email = `approver-2fa-${Date.now()}@example.com`;
  await page.goto('/staff');
  const form = page.getByRole('form', { name: 'Add a staff member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('Tess Twofactor');
  await form.getByLabel('Role').selectOption('approver');
  // The worker's admin administers its sub-organization only: the new member is held to it too.
  await form.getByRole('checkbox', { name: world.subOrg.name, exact: true }).check();
  await form.getByRole('button', { name: 'Add staff member' }).click();
  await expect(form.getByRole('status')).toContainText('another admin must approve it');
  const setupLink = await form.getByLabel('Set-up link (shown once)').inputValue();
  expect(setupLink).toMatch(/\/setup#.+/);

  // A second admin approves the new approver; only then does the link work.
  const reviewer = await newPage(browser, baseURL);
  await signInAs(reviewer, members.orgAdmin, baseURL ?? '');
  await reviewer.goto('/staff');
  await expectHydrated(reviewer);
  // The proposal opens on its own page, where it is approved over its card.
  await reviewer
    .getByRole('link', {
      name: new RegExp(`^Review and decide: .*${email.replace(/[.]/g, '\\.')}`),
    })
    .click();
  await approveOnItsPage(reviewer);
  await reviewer.context().close();

  const approver = await newPage(browser, baseURL);
  await approver.goto(setupLink);
  const choose = approver.getByRole('form', { name: 'Choose your password' });
  await choose.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await choose.getByLabel('Password again').fill(PASSWORD);
  await choose.getByRole('button', { name: 'Set password' }).click();
  await expect(approver.getByRole('status')).toContainText(`Your password is set for ${email}`);

  await passwordStep(approver, email);

  // The enrolment step: no session yet.
  const setUp = approver.getByRole('form', { name: 'Set up a second factor' });
  await expect(setUp.getByRole('heading', { name: 'Set up a second factor' })).toBeFocused();
  await expect(
    setUp.getByRole('img', { name: 'QR code of the key, for an authenticator app' }),
  ).toBeVisible();
  await expectNoAxeViolations(approver);
  expect((await approver.request.get('/auth/session')).status()).toBe(401);
  const secret = (await setUp.getByTestId('second-factor-key').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await typeInto(approver, 'Code from your authenticator app', '000000');
  await approver.keyboard.press('Enter');
  const code = setUp.getByLabel('Code from your authenticator app');
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toBeFocused();
  await expect(setUp.getByRole('alert')).toContainText('does not match the new key');
  await approver.keyboard.press('ControlOrMeta+A');
  await approver.keyboard.type(codeOf(secret));
  await approver.keyboard.press('Enter');

  const list = approver.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = await list.getByRole('listitem').allInnerTexts();
  await expectNoAxeViolations(approver);
  await tabTo(approver, approver.getByRole('button', { name: 'I have saved them: continue' }));
  await approver.keyboard.press('Enter');
  await expect(approver).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  await expect(approver.getByTestId('signed-in-member')).toContainText('Tess Twofactor');

  // The account page says so.
  await approver.getByRole('link', { name: 'Your account' }).click();
  const panel = approver.getByRole('region', { name: 'Second factor' });
  await expect(panel).toContainText('10 recovery codes left');
  await expectNoAxeViolations(approver);
  await signOut(approver);

  // A code: the next step's (a phone a little ahead), newer than the one that set it up.
  await passwordStep(approver, email, '/account');
  const step = approver.getByRole('form', { name: 'Second factor' });
  const field = step.getByLabel('Code from your authenticator app');
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(field).toHaveAttribute('inputmode', 'numeric');
  await expectNoAxeViolations(approver);
  await approver.keyboard.type(codeOf(secret, 30));
  await approver.keyboard.press('Enter');
  await expect(approver).toHaveURL(/\/account$/);
  await expect(panel).toContainText('10 recovery codes left');
  await signOut(approver);

  // A recovery code, once.
  const [recovery] = recoveryCodes;
  await passwordStep(approver, email, '/account');
  await tabTo(approver, approver.getByRole('button', { name: 'Use a recovery code instead' }));
  await approver.keyboard.press('Enter');
  await expect(approver.getByLabel('Recovery code')).toBeFocused();
  await approver.keyboard.type(recovery ?? '');
  await approver.keyboard.press('Enter');
  await expect(approver).toHaveURL(/\/account$/);
  await expect(approver.getByRole('region', { name: 'Second factor' })).toContainText(
    '9 recovery codes left',
  );
  await signOut(approver);

  // The same code again: typed once its field has taken focus, as above (keys typed before
  // that went to the app-code field, and the answer was about that field's format instead).
  await passwordStep(approver, email);
  await tabTo(approver, approver.getByRole('button', { name: 'Use a recovery code instead' }));
  await approver.keyboard.press('Enter');
  await expect(approver.getByLabel('Recovery code')).toBeFocused();
  await approver.keyboard.type(recovery ?? '');
  await approver.keyboard.press('Enter');
  await expect(approver.getByLabel('Recovery code')).toHaveAttribute('aria-invalid', 'true');
  await expect(approver.getByRole('alert')).toContainText('recovery code was used already');
  await approver.context().close();
});
