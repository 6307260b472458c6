import { expect, test, type Page } from '@playwright/test';
import { demoAccount, signInAsDemoMember, type StaffRole } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';

/** Signs in on /login the way a person does: pick the demo account, press Sign in. */
async function signInThroughTheForm(page: Page, role: StaffRole) {
  const account = await demoAccount(page.request, role);
  await page
    .getByRole('button', {
      name: `Use ${role.charAt(0).toUpperCase()}${role.slice(1)} account ${account.email}`,
    })
    .click();
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  return account;
}

const MAY: Record<StaffRole, { audit: boolean; staff: boolean; reveal: boolean }> = {
  viewer: { audit: false, staff: false, reveal: false },
  initiator: { audit: false, staff: false, reveal: true },
  approver: { audit: false, staff: false, reveal: true },
  admin: { audit: true, staff: true, reveal: true },
};

test.describe('Signing in', () => {
  // One browser page for the four roles, each signed in through the form and out again: the
  // sign-out leaves the page on /login for the next.
  test('each role sees what the role may do and nothing more, then signs out', async ({ page }) => {
    test.slow();
    for (const role of Object.keys(MAY) as StaffRole[]) {
      await test.step(role, async () => {
        const may = MAY[role];
        await page.goto('/login');
        const account = await signInThroughTheForm(page, role);
        // Signed in, the home page: the overview.
        await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
        await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();

        const member = page.getByTestId('signed-in-member');
        await expect(member).toContainText(account.name);
        await expect(member).toContainText(role.charAt(0).toUpperCase() + role.slice(1));
        await expect(member).toContainText('All sub-organizations');

        const nav = page.getByRole('navigation', { name: 'Main' });
        await expect(nav.getByRole('link', { name: 'Transactions' })).toBeVisible();
        await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(may.audit ? 1 : 0);
        await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(may.staff ? 1 : 0);

        await nav.getByRole('link', { name: 'Bank accounts' }).click();
        const table = page.getByRole('table', { name: 'Bank accounts' });
        await expect(table.locator('tbody tr').first()).toBeVisible();
        await expect(table.getByRole('button', { name: /^Reveal / })).toHaveCount(
          may.reveal ? 20 : 0,
        );

        // Typing the address of a page the role may not use explains, rather than crashes.
        await page.goto('/audit');
        if (may.audit) {
          await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
        } else {
          await expect(
            page.getByRole('heading', { name: "You don't have access to the audit log" }),
          ).toBeVisible();
        }

        await page.getByRole('button', { name: 'Sign out' }).click();
        await expect(page).toHaveURL(/\/login$/);
        await page.goto('/transactions');
        await expect(page).toHaveURL(/\/login\?redirect=%2Ftransactions$/);
      });
    }
  });

  test('a signed-out visit goes to /login and back to the same address after sign-in, never to another site', async ({
    page,
  }) => {
    // More than one story's steps: the tripled budget, for a loaded machine.
    test.slow();
    await page.goto('/transactions?status=COMPLETED');
    await expect(page).toHaveURL(/\/login\?redirect=%2Ftransactions%3Fstatus%3DCOMPLETED$/);
    await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    await signInThroughTheForm(page, 'viewer');
    await expect(page).toHaveURL(/\/transactions\?status=COMPLETED$/);
    await expect(page.getByLabel('Status')).toHaveValue('COMPLETED');

    await test.step('a redirect to another site is ignored', async () => {
      // Signed out again: the session's cookie gone.
      await page.context().clearCookies();
      await page.goto('/login?redirect=https%3A%2F%2Fexample.com%2Fsteal');
      await signInThroughTheForm(page, 'viewer');
      await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    });
  });

  test('the sign-in page passes an axe scan, with and without errors; a wrong password is refused with the server message, announced', async ({
    page,
  }) => {
    // More than one story's steps: the tripled budget, for a loaded machine.
    test.slow();
    await page.goto('/login');
    await expect(page.getByRole('region', { name: 'Demo accounts' })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The email or password is not correct.');
    await expect(page).toHaveURL(/\/login$/);

    // The next try, with the password left empty: its own field error, not the old refusal too.
    await page.getByLabel('Password').fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toHaveText(['password is required']);

    // Nothing typed at all: the first field is named and takes focus.
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expectNoAxeViolations(page);
  });
});

test.describe('As an admin', () => {
  test.beforeEach(async ({ page, baseURL }) => {
    await signInAsDemoMember(page, 'admin', baseURL ?? '');
  });

  test('the scope follows the member from page to page and filters the lists; the audit log lists sign-ins, filters in the URL, and passes an axe scan', async ({
    page,
  }) => {
    test.slow();
    await page.goto('/transactions');
    const scope = page.getByLabel('Scope');
    const option = scope.locator('option').nth(1);
    await expect(option).toBeAttached();
    const subOrgId = await option.getAttribute('value');
    const listCall = page.waitForRequest((r) => r.url().includes(`subOrgId=${subOrgId}`));
    await scope.selectOption(subOrgId ?? '');
    await expect(page).toHaveURL(new RegExp(`subOrg=${subOrgId}`));
    await listCall;

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Bank accounts' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/bank-accounts\\?subOrg=${subOrgId}$`));
    await expect(page.getByLabel('Scope')).toHaveValue(subOrgId ?? '');

    await page.getByLabel('Scope').selectOption('');
    await expect(page).toHaveURL(/\/bank-accounts$/);

    // From there to the audit log, with the main navigation.
    await expectHydrated(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    const table = page.getByRole('table', { name: 'Audit log' });
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Action').selectOption({ label: 'Sign-in' });
    await expect(page).toHaveURL(/action=auth\.login/);
    await page.getByLabel('Outcome').selectOption('success');
    await expect(page).toHaveURL(/outcome=success/);
    await page.getByLabel('Actor').selectOption({ label: 'Alex Admin (admin@sandbox.local)' });
    await expect(page).toHaveURL(/actorId=/);
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(table.locator('tbody tr').first()).toContainText('auth.login');
    for (const text of await table.locator('tbody tr').allInnerTexts()) {
      expect(text).toContain('auth.login');
      expect(text).toContain('Success');
      expect(text).toContain('Alex Admin');
    }
  });

  test('adds a staff member, then disables them after confirming; a session that ends mid-form signs in again and comes back to what was typed', async ({
    page,
  }) => {
    test.slow();
    const email = `new-${Date.now()}@example.com`;
    await page.goto('/staff');
    await expect(page.getByRole('table', { name: 'Staff members' })).toBeVisible();
    await expectNoAxeViolations(page);

    const form = page.getByRole('form', { name: 'Add a staff member' });
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Name').fill('Nina New');
    await form.getByLabel('Role').selectOption('initiator');
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(form.getByRole('status')).toContainText('Nina New');
    // The admin sets no password: the member chooses one with the set-up link, shown this once.
    await expect(form.getByLabel('Set-up link (shown once)')).toHaveValue(/\/setup#.+/);

    // The team is every worker's members and more: the new member is found by email, not scrolled to.
    const search = page.getByRole('search', { name: 'Find staff' });
    await search.getByLabel('Name or email').fill(email);
    await search.getByLabel('Name or email').press('Enter');
    const table = page.getByRole('table', { name: 'Staff members' });
    await expect(table.locator('tbody tr')).toHaveCount(1);
    const row = table.getByRole('row').filter({ hasText: email });
    await expect(row).toContainText('Initiator');
    await row.getByRole('button', { name: 'Disable Nina New' }).click();
    await expect(row.getByRole('button', { name: 'Confirm' })).toBeFocused();
    await row.getByRole('button', { name: 'Confirm' }).click();
    await expect(row).toContainText('Disabled');

    // The next member typed in the form, on the page opened afresh (no search in its address),
    // and the session ends before it is sent.
    const draftEmail = `draft-${Date.now()}@example.com`;
    await page.goto('/staff');
    await form.getByLabel('Email').fill(draftEmail);
    await form.getByLabel('Name').fill('Dana Draft');
    await form.getByLabel('Role').selectOption('approver');

    // The session ends (expiry, revocation) while the member is typing.
    await page.context().clearCookies();
    await form.getByRole('button', { name: 'Add staff member' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fstaff&ended=send$/);
    // Told that the add was not done, and that the form is waiting.
    await expect(page.getByRole('status')).toHaveText(
      'Your session had ended, so what you just sent was not received: nothing was sent and nothing changed. Sign in to go back: anything you had typed in a form is still there.',
    );

    await signInThroughTheForm(page, 'admin');
    await expect(page).toHaveURL(/\/staff$/);
    const restored = page.getByRole('form', { name: 'Add a staff member' });
    await expect(restored.getByLabel('Email')).toHaveValue(draftEmail);
    await expect(restored.getByLabel('Name')).toHaveValue('Dana Draft');
    await expect(restored.getByLabel('Role')).toHaveValue('approver');
  });
});

// The sandbox's demo members sign in with the password the sign-in page
// publishes; every other story signs in as its worker's own members.
test.describe('Demo members', () => {
  test('a demo approver is signed in without a second factor, and told why', async ({
    page,
    baseURL,
  }) => {
    await signInAsDemoMember(page, 'approver', baseURL ?? '');
    await page.goto('/account');
    const panel = page.getByRole('region', { name: 'Second factor' });
    await expect(panel).toContainText("sandbox's demo members");
    await expect(panel.getByRole('button')).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});
