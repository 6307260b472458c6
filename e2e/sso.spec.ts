import { expect, signInAs, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveOnItsPage } from './held-items.ts';
import { expectHydrated } from './keyboard.ts';
import {
  startTestOidcProvider,
  TEST_SSO_SCOPES,
  type TestOidcProvider,
} from '../src/server/test/oidc-provider.ts';

// Single sign-on decides who enters every sub-organization: only an admin of all of them sets it up.
test.use({ role: 'orgAdmin' });

// An admin points the console at a real OpenID provider this story starts on 127.0.0.1 and
// maps its group to the approver role, which another admin approves; a person of that group signs in through the
// provider's own pages, is provisioned and sees the inbox; someone in no mapped group is
// told why on the sign-in page; disabled at the provider, the next sign-in stops there.
// The settings are the console's one row: the story turns single sign-on off when it ends,
// and never turns passwords off (every other story signs in with one).

let provider: TestOidcProvider | undefined;

test.beforeAll(async ({ baseURL }) => {
  provider = await startTestOidcProvider({
    redirectUris: [`${new URL(baseURL ?? '').origin}/auth/sso/callback`],
  });
});

test.afterAll(async () => {
  await provider?.close();
});

test('a member signs in through the company provider and is provisioned by their group', async ({
  page,
  browser,
  baseURL,
  members,
}, testInfo) => {
  test.slow();
  const idp = provider;
  if (!idp) throw new Error('the provider did not start');
  const tag = `${testInfo.workerIndex}-${Date.now()}`;
  const group = `e2e-approvers-${tag}`;
  const login = `approver-${tag}`;
  idp.accounts.set(login, {
    email: `${login}@acme.test`,
    name: `Approver ${tag}`,
    groups: [group],
  });
  idp.accounts.set(`outsider-${tag}`, {
    email: `outsider-${tag}@acme.test`,
    name: `Outsider ${tag}`,
    groups: ['marketing'],
  });

  await page.goto('/settings/sso');
  await expect(page.getByRole('heading', { name: 'Single sign-on', level: 1 })).toBeVisible();
  await expectHydrated(page);
  await expectNoAxeViolations(page);
  const form = page.getByRole('form', { name: 'OpenID provider' });
  await form.getByLabel('Offer single sign-on on the sign-in page').check();
  await form.getByLabel('Company name on the button').fill('Acme');
  await form.getByLabel('Issuer URL').fill(idp.issuer);
  await form.getByLabel('Client ID').fill(idp.clientId);
  await form.getByLabel('Client secret').fill(idp.clientSecret);
  await form.getByLabel('Scopes').fill(TEST_SSO_SCOPES);
  // A line the page cannot read is named at its field, before anything is sent.
  await form.getByLabel('Group mappings').fill(`${group} = owner`);
  await form.getByRole('button', { name: 'Save single sign-on settings' }).click();
  await expect(form.getByText('line 1 must read "group = role"')).toBeVisible();
  await form.getByLabel('Group mappings').fill(`${group} = approver`);
  await form.getByRole('button', { name: 'Save single sign-on settings' }).click();
  // Turning it on, with a group mapped to approver, widens access: another admin approves it.
  await expect(form.getByRole('status').filter({ hasText: 'Saved for approval' })).toBeVisible();
  const review = page.getByRole('link', { name: 'Review the change…' });
  await expect(review).toBeVisible();
  await expectNoAxeViolations(page);
  const heldPath = new URL((await review.getAttribute('href')) ?? '', baseURL).pathname;
  const other = await browser.newPage();
  try {
    await signInAs(other, members.orgAdmin2, baseURL ?? '');
    await other.goto(heldPath);
    await expectHydrated(other);
    await expect(other.getByText(idp.issuer)).toBeVisible();
    await expect(other.getByText('approver, every sub-organization')).toBeVisible();
    expect(await other.content()).not.toContain(idp.clientSecret);
    await expectNoAxeViolations(other);
    await approveOnItsPage(other);
  } finally {
    await other.close();
  }
  // In force now; the secret is stored, never shown again.
  await page.reload();
  await expect(page.getByRole('link', { name: 'Review the change…' })).toHaveCount(0);
  expect(await page.content()).not.toContain(idp.clientSecret);
  await expect(page.getByText('A secret is stored and never shown.')).toBeVisible();

  try {
    // A person of the mapped group, in a browser of their own.
    const context = await browser.newContext({ baseURL });
    const person = await context.newPage();
    await person.goto('/login?redirect=%2Fapprovals');
    const button = person.getByRole('link', { name: 'Sign in with Acme' });
    await expect(button).toBeVisible();
    await expectNoAxeViolations(person);
    await button.click();
    // The provider's own page.
    await expect(person.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
    await person.getByLabel('Username').fill(login);
    await person.getByRole('button', { name: 'Sign in at the provider' }).click();
    await expect(person).toHaveURL(/\/approvals$/);
    await expect(person.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
    await expectHydrated(person);
    await expectNoAxeViolations(person);
    const session = (await (await person.request.get('/auth/session')).json()) as {
      member: { email: string; role: string };
    };
    expect(session.member).toMatchObject({ email: `${login}@acme.test`, role: 'approver' });
    await context.close();

    // Someone in no mapped group comes back to the sign-in page, told why.
    const outside = await browser.newContext({ baseURL });
    const outsider = await outside.newPage();
    await outsider.goto('/login');
    await outsider.getByRole('link', { name: 'Sign in with Acme' }).click();
    await outsider.getByLabel('Username').fill(`outsider-${tag}`);
    await outsider.getByRole('button', { name: 'Sign in at the provider' }).click();
    await expect(outsider).toHaveURL(/\/login\?sso=unmapped$/);
    await expect(outsider.getByRole('alert')).toContainText('in no group this console lets in');
    await expectNoAxeViolations(outsider);
    await outside.close();

    // Disabled at the provider: the next sign-in is refused there.
    const account = idp.accounts.get(login);
    if (account) account.disabled = true;
    const again = await browser.newContext({ baseURL });
    const returning = await again.newPage();
    await returning.goto('/login');
    await returning.getByRole('link', { name: 'Sign in with Acme' }).click();
    await returning.getByLabel('Username').fill(login);
    await returning.getByRole('button', { name: 'Sign in at the provider' }).click();
    await expect(returning.getByRole('alert')).toContainText('That account cannot sign in here.');
    expect(new URL(returning.url()).origin).toBe(idp.issuer);
    await again.close();
  } finally {
    // Off again: the sign-in page of every other story is as it was.
    await page.goto('/settings/sso');
    await page.getByLabel('Offer single sign-on on the sign-in page').uncheck();
    await page.getByRole('button', { name: 'Save single sign-on settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  }
});
