import type { APIRequestContext, Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { DEFAULT_POLICY } from '../src/contract/policies.ts';
import { expectNoAxeViolations } from './axe.ts';
import { decideByApi, uniqueName } from './bank-account-data.ts';
import { choose } from './create-forms.ts';
import { approveOnItsPage } from './held-items.ts';
import { focusLive, tabTo } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { openInboxItem } from './inbox.ts';
import type { WorkerWorld } from './auth.ts';
import { expect, test } from './policy-turn.ts';
import { DESKTOP_ONLY } from './widths.ts';

// Changing an approval policy takes four eyes. The worker's organization-wide
// admin drafts "Transfers ≥ $10,000 → 2 approvals from approvers or admins"
// and may not publish it; the worker's other admin (neither made the other,
// so they are not linked) reviews the diff and publishes it; the preview then answers 2 approvals for
// $50,000 and 1 for $500; restoring version 0, published by the other admin,
// brings the default back. Other specs run beside this one on the same
// server: the stricter policy lives for seconds, and the story's policy
// turn (e2e/policy-turn.ts) puts the default back however it ended.
//
// Then the rule at work: published by the second admin after reviewing it, a
// $50,000 transfer's review says it needs 2 approvals, the first approval
// leaves it PENDING at 1 of 2 (on its page and in the inbox, with who may
// still approve), the second moves its timeline on; $500 still needs one, and
// a blocked destination is refused at creation with the rule's name. Both
// rules are held to the worker's own sub-organization (e2e/worker-world.ts)
// and to amounts no other spec sends, so transfers other specs make meanwhile
// are judged by the default.
//
// One organization policy for all of them: each story takes a policy turn only
// while its rule must be in force (publish, create its items, default back);
// the approvals that follow are judged by the rule frozen on each item, so the
// next story's turn need not wait for them. The stories spend the USDC of their
// worker's funded vault (read before each $50,000 off-ramp) and pay its
// approved bank account: a worker runs one story at a time, so they run in
// parallel on different workers like any others, each with its own world.

const POLICIES = '/api/console/policies/transactions/';

/**
 * Publishes the open draft as a reviewer does: "Review and publish" opens the
 * revision's own page, where it is approved (e2e/held-items.ts), and the
 * Policies page is read again.
 */
async function publishOnItsPage(reviewer: Page): Promise<void> {
  await reviewer.getByRole('link', { name: /^Review and publish revision \d+…$/ }).click();
  await approveOnItsPage(reviewer);
  await reviewer.goto('/policies');
}
const step = (page: Page, status: string) => page.locator(`[data-step="${status}"]`);
const RULE = 'Transfers ≥ $10,000';

async function csrfOf(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/auth/session')).json()) as { csrfToken: string }).csrfToken;
}

async function ask(page: Page, amountUsd: string) {
  const preview = page.getByRole('form', { name: 'What would this need?' });
  await preview.getByLabel('Category').selectOption('TRANSFER');
  await preview.getByLabel('Amount in USD').fill(amountUsd);
  await preview.getByRole('button', { name: 'Ask' }).click();
  return preview.getByTestId('preview-answer');
}

test('an admin drafts a stricter rule, a second admin reviews the diff and publishes it, and the default comes back the same way', async ({
  policyTurn,
}) => {
  test.setTimeout(90_000);
  const { author: page, reviewer } = policyTurn;

  // The whole story is about the policy itself: it holds its turn throughout, from the default
  // found to the default restored.
  await policyTurn.take();
  // The author drafts by keyboard.
  await page.goto('/policies');
  const active = page.getByRole('list', { name: 'Rules of the active policy' });
  await expect(active).toContainText('Otherwise → 1 approval from anyone who may approve');
  await expect(page.getByText('Items already created keep the rule that applied')).toBeVisible();
  await expectNoAxeViolations(page);
  await focusLive(page.getByRole('button', { name: 'Begin a draft from the active policy' }));
  await page.keyboard.press('Enter');
  const editor = page.getByRole('form', { name: 'New draft from the active policy' });
  await tabTo(page, editor.getByRole('button', { name: 'Add rule' }));
  await page.keyboard.press('Enter');
  const rule = editor.getByRole('region', { name: /^Rule 1/ });
  await expect(rule.getByLabel('Rule name')).toBeFocused();
  // Saved empty, the contract's refusal shows beside the field.
  await editor.getByRole('button', { name: 'Save draft' }).click();
  await expect(rule.getByLabel('Rule name')).toHaveAttribute('aria-invalid', 'true');
  await expect(rule.getByText('give the rule a name')).toBeVisible();
  await rule.getByLabel('Rule name').fill(RULE);
  // A new rule starts on any category: this one is held to transfers, so the other stories'
  // ramps and calls meanwhile are judged by the default.
  await rule.getByRole('checkbox', { name: 'Transfer', exact: true }).check();
  await rule.getByLabel('USD amount at or above').fill('10000');
  await rule.getByLabel('Approvals needed').fill('2');
  await rule.getByRole('checkbox', { name: 'Approvers', exact: true }).check();
  await rule.getByRole('checkbox', { name: 'Admins', exact: true }).check();
  await expectNoAxeViolations(page);
  await tabTo(page, editor.getByRole('button', { name: 'Save draft' }), 200);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Draft saved: revision 1.')).toBeFocused();
  await expect(page.getByTestId('publish-blocked')).toContainText('You edited this draft');
  await expect(page.getByRole('link', { name: /Review and publish/ })).toHaveCount(0);

  // The reviewer reads the diff and publishes it, once however it is clicked.
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await reviewer.goto('/policies');
  const line = `Added as rule 1: ${RULE}: Transfer ≥ $10,000.00 → 2 approvals from approvers or admins`;
  await expect(reviewer.getByRole('list', { name: 'Changes from the active policy' })).toHaveText(
    line,
  );
  const width = await reviewer.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page fits a 390 px screen').toBeLessThanOrEqual(390);
  // "Review and publish" opens the revision's own page: its card says what publishing
  // changes, and it is approved there, once however it is clicked.
  let decisions = 0;
  reviewer.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/decision/')) decisions += 1;
  });
  await focusLive(reviewer.getByRole('link', { name: 'Review and publish revision 1…' }));
  await reviewer.keyboard.press('Enter');
  await expect(reviewer.locator('#held-item-page')).toContainText(`Rule “${RULE}”`);
  await expectNoAxeViolations(reviewer);
  await approveOnItsPage(reviewer, { dblclick: true });
  expect(decisions).toBe(1);
  await reviewer.goto('/policies');
  await expect(reviewer.getByRole('list', { name: 'Rules of the active policy' })).toContainText(
    `${RULE}: Transfer ≥ $10,000.00 → 2 approvals from approvers or admins`,
  );

  // What would a transfer need now?
  await expect(await ask(reviewer, '50000')).toContainText(
    `rule “${RULE}” applies → 2 approvals from approvers or admins`,
  );
  await expect(await ask(reviewer, '500')).toContainText(
    'no rule matches, so the fallback applies → 1 approval from anyone who may approve',
  );

  // Version 0 restored by the author, published by the reviewer: the default again.
  await page.reload();
  await page.getByRole('button', { name: 'Restore version 0 as draft' }).click();
  await expect(page.getByText('Version 0 restored as a draft')).toBeFocused();
  await reviewer.reload();
  await expect(
    reviewer.getByRole('list', { name: 'Changes from the active policy' }),
  ).toContainText(`Removed rule 1: ${RULE}`);
  await publishOnItsPage(reviewer);
  const rules = reviewer.getByRole('list', { name: 'Rules of the active policy' });
  await expect(rules.getByRole('listitem')).toHaveCount(1);
  await expect(rules).toHaveText('Otherwise → 1 approval from anyone who may approve');
  await policyTurn.end();
});

/** The create form for a transfer of `amount` USDC from the worker's funded vault, at its review step. */
async function reviewTransfer(
  page: Page,
  world: WorkerWorld,
  amount: string,
  to: { contact: string } | { address: string },
) {
  await page.goto('/transactions/new?category=TRANSFER');
  const form = page.getByRole('form', { name: 'Transfer' });
  await choose(form.getByLabel('From vault'), world.funded.name);
  await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
  await form.getByLabel('Asset', { exact: true }).selectOption('USDC');
  if ('contact' in to) await choose(form.getByLabel('Contact', { exact: true }), to.contact);
  else {
    await form.getByRole('radio', { name: 'External address' }).check();
    await form.getByLabel('Destination address').fill(to.address);
  }
  await form.getByLabel(/^Amount/).fill(amount);
  await form.getByRole('button', { name: 'Review' }).click();
  return page.getByRole('region', { name: /Review the transfer/ });
}

const BIG = 'Big transfers from the treasury';
const BLOCKED = 'No large payouts to unknown addresses';

test('a rule published by two admins holds a $50,000 transfer to two approvals, leaves $500 at one, and refuses a blocked destination by name', async ({
  members,
  browser,
  baseURL,
  policyTurn,
  world,
}) => {
  test.slow();
  const { author, reviewer } = policyTurn;
  const base = baseURL ?? '';
  const origin = new URL(base).origin;
  const initiator = await memberPage(browser, 'initiator', base);
  const approver = await memberPage(browser, 'approver', base);

  // Both rules are held to the worker's sub-organization, so the transfers other workers' specs
  // make at the same time are judged by the default.
  const subOrgId = world.subOrg.id;
  const twoApprovers = {
    action: 'ALLOW',
    approvals: 2,
    approvers: { kinds: ['approver', 'admin'], memberIds: [] },
    apiClientMayApproveOwn: false,
  };
  const policy = {
    rules: [
      {
        id: 'blocked',
        name: BLOCKED,
        match: {
          subOrgIds: [subOrgId],
          destinationKinds: ['EXTERNAL_ADDRESS'],
          amountUsdAtLeast: '40000',
        },
        outcome: { action: 'BLOCK' },
      },
      {
        id: 'big',
        name: BIG,
        match: {
          subOrgIds: [subOrgId],
          categories: ['TRANSFER'],
          amountUsdAtLeast: '10000',
        },
        outcome: twoApprovers,
      },
    ],
    fallback: DEFAULT_POLICY.fallback,
  };
  // The rules are in force from here until the transfer exists and the blocked one is refused.
  await policyTurn.take();
  const drafted = await author.request.put(`${POLICIES}draft/`, {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(author.request) },
    data: { policy, revision: 0 },
  });
  expect(drafted.status(), await drafted.text()).toBe(200);
  // The second admin reviews it on the page and publishes it.
  await reviewer.goto('/policies');
  await expect(
    reviewer.getByRole('list', { name: 'Changes from the active policy' }),
  ).toContainText(BIG);
  await publishOnItsPage(reviewer);

  // The initiator's $50,000 transfer says what it needs before anything is sent.
  const review = await reviewTransfer(initiator, world, '50000', { contact: world.ethereum.name });
  await expect(review.getByTestId('review-approvals')).toHaveText(
    `Needs 2 approvals from approvers or admins (rule “${BIG}”). The rule is fixed on the transaction when it is created.`,
  );
  await expectNoAxeViolations(initiator);
  await review.getByRole('button', { name: 'Send transaction' }).click();
  await expect(initiator).toHaveURL(/\/transactions\/(?!new)[^/?]+$/);
  const id = new URL(initiator.url()).pathname.split('/').at(-1) ?? '';

  // $500 still needs one approval, as before the policy.
  const small = await reviewTransfer(initiator, world, '500', { contact: world.ethereum.name });
  await expect(small.getByTestId('review-approvals')).toContainText(
    'Needs 1 approval from anyone who may approve (rule “Default”)',
  );

  // A blocked destination: said at review, and refused at creation with the rule's name.
  const blocked = await reviewTransfer(initiator, world, '45000', {
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
  });
  await expect(blocked.getByTestId('review-approvals')).toHaveText(
    `Blocked by the rule “${BLOCKED}”: it will be refused if you send it.`,
  );
  await blocked.getByRole('button', { name: 'Send transaction' }).click();
  await expect(blocked.getByRole('alert')).toContainText(
    `Refused by the approval policy: rule "${BLOCKED}" blocks this`,
  );
  await expect(initiator).toHaveURL(/\/transactions\/new/);
  await initiator.context().close();
  // The $50,000 transfer's rule was frozen on it when it was made: the default comes back now.
  await policyTurn.end();

  // The first approval is recorded and the transfer stays PENDING, 1 of 2.
  const approverName = members.approver.name;
  await approver.goto(`/transactions/${id}`);
  await expect(approver.getByTestId('approval-progress')).toContainText(
    `0 of 2 approvals under the rule “${BIG}”`,
  );
  await approver.getByRole('button', { name: 'Approve…' }).click();
  await approver.getByRole('button', { name: 'Approve transaction' }).click();
  await expect(approver.getByRole('status').filter({ hasText: 'Your approval' })).toHaveText(
    `Your approval is recorded: 1 of 2 under the rule "${BIG}". It waits for 1 more before anything is sent.`,
  );
  const progress = approver.getByTestId('approval-progress');
  await expect(progress).toContainText('1 of 2 approvals');
  await expect(progress.getByRole('list', { name: 'Approvals collected' })).toContainText(
    `${approverName} ✓`,
  );
  await expect(progress).toContainText('Waiting for one more of:');
  await expect(step(approver, 'PENDING')).toHaveAttribute('data-state', 'current');
  await expectNoAxeViolations(approver);

  // The inbox shows the same, and who may still approve.
  await reviewer.goto(`/approvals?subOrg=${subOrgId}`);
  const row = reviewer.locator(`tr[data-approval-id="${id}"]`);
  await expect(row.getByTestId('inbox-progress')).toContainText(
    `1 of 2 approvals (${approverName} ✓) · waiting for one more of:`,
  );
  await expect(row.getByTestId('inbox-progress')).toContainText(members.admin.name);

  // The second admin's approval completes it: the timeline moves on.
  await openInboxItem(row);
  await expect(reviewer.getByTestId('approval-progress')).toContainText('1 of 2 approvals');
  await reviewer.getByRole('button', { name: 'Approve…' }).click();
  await reviewer.getByRole('button', { name: 'Approve transaction' }).click();
  await expect(step(reviewer, 'APPROVED')).toHaveAttribute('data-state', /done|current/, {
    timeout: 20_000,
  });
  await approver.context().close();
});

const PAYOUTS = 'Large off-ramps from the treasury';

/** The initiator's off-ramp of `amount` USDC to the world's approved account, at its review step. */
async function reviewOffRamp(
  initiator: Page,
  world: WorkerWorld,
  chain: string,
  amount: string,
): Promise<void> {
  await initiator.goto('/convert');
  const form = initiator.getByRole('form', { name: /^Off-ramp/ });
  await expect(form.getByLabel('From vault')).toBeEnabled();
  await form.getByLabel('From vault').selectOption(world.funded.id);
  await form.getByLabel('Chain').selectOption(chain);
  await form.getByLabel('Asset sold').selectOption('USDC');
  // The world's approved account is paid: the accounts policy judged it, not this one.
  await form.getByLabel('To bank account').selectOption(world.bankAccount.id);
  await form.getByLabel('Amount (USDC)').fill(amount);
  await form.getByRole('button', { name: 'Get quotes' }).click();
  await expect(initiator.getByTestId('quote')).toHaveCount(3);
  await focusLive(initiator.getByRole('button', { name: 'Review the chosen quote' }));
  await initiator.keyboard.press('Enter');
}

/** Sends the reviewed off-ramp with the keyboard; its id, from the page it lands on. */
async function sendOffRamp(initiator: Page): Promise<string> {
  await focusLive(initiator.getByRole('button', { name: 'Send conversion' }));
  await initiator.keyboard.press('Enter');
  await expect(initiator).toHaveURL(/\/transactions\/[^/]+$/);
  return new URL(initiator.url()).pathname.split('/').at(-1) ?? '';
}

/** The approver's first of two approvals on the off-ramp's page: it stays PENDING. */
async function approveFirstOfTwo(approver: Page, id: string, rule: string): Promise<void> {
  await approver.goto(`/transactions/${id}`);
  await expect(approver.getByTestId('approval-progress')).toContainText(
    `0 of 2 approvals under the rule “${rule}”`,
  );
  await approver.getByRole('button', { name: 'Approve…' }).click();
  await approver.getByRole('button', { name: 'Approve transaction' }).click();
  await expect(approver.getByRole('status').filter({ hasText: 'Your approval' })).toHaveText(
    `Your approval is recorded: 1 of 2 under the rule "${rule}". It waits for 1 more before anything is sent.`,
  );
  await expect(step(approver, 'PENDING')).toHaveAttribute('data-state', 'current');
}

// Two off-ramp rules in turn, in one set of four browsers (two admins, the initiator, the
// approver), each held to the worker's sub-organization (where this worker runs one story at a
// time), each in force only until its off-ramp exists: its rule was frozen on it when it was
// made, and the default comes back at once. First a rule for off-ramps of $1,000 and more,
// drafted through the API and published by the second admin; then a rule made with the editor's
// defaults: a name, "≥ $10,000" and "2 approvals", no category ticked, so it covers every
// category and a $50,000 off-ramp waits for a second approval.
for (const width of DESKTOP_ONLY) {
  test(`at ${width} px: an off-ramp rule published by two admins, then one made with the editor's defaults (every category): the Convert review says each needs 2 approvals, and each ramp waits for the second`, async ({
    browser,
    baseURL,
    policyTurn,
    world,
  }) => {
    // Four members, three quotes twice and four policy versions: bounds "it happened".
    test.setTimeout(240_000);
    const { author, reviewer } = policyTurn;
    const base = baseURL ?? '';
    const origin = new URL(base).origin;
    const viewport = { width, height: 900 };
    await author.setViewportSize(viewport);
    await reviewer.setViewportSize(viewport);
    const initiator = await memberPage(browser, 'initiator', base);
    const approver = await memberPage(browser, 'approver', base);
    await initiator.setViewportSize(viewport);
    await approver.setViewportSize(viewport);

    const treasury = world.funded;
    const subOrgId = world.subOrg.id;
    const usdc = async () =>
      (
        (await (
          await author.request.get(`/api/external/vaults/${treasury.id}/balances/`)
        ).json()) as Record<string, Record<string, string>>
      ).USDC ?? {};

    try {
      await test.step('a rule for off-ramps of $1,000 and more, drafted through the API', async () => {
        // Held to the worker's sub-organization and to off-ramps of $1,000 and more: the ramps
        // other workers' specs send meanwhile are judged by the default.
        // Another chain than the transfer story's Ethereum when the vault holds enough there.
        const chains = Object.entries(await usdc())
          .filter(([, amount]) => cmp(amount, '2000') >= 0)
          .map(([chain]) => chain)
          .sort((a, b) => Number(a === 'ETHEREUM') - Number(b === 'ETHEREUM'));
        const chain = chains[0];
        if (!chain) throw new Error(`${treasury.name} holds 2,000 USDC on no chain`);
        const policy = {
          rules: [
            {
              id: 'payouts',
              name: PAYOUTS,
              match: {
                subOrgIds: [subOrgId],
                categories: ['OFF_RAMP'],
                amountUsdAtLeast: '1000',
              },
              outcome: {
                action: 'ALLOW',
                approvals: 2,
                approvers: { kinds: ['approver', 'admin'], memberIds: [] },
                apiClientMayApproveOwn: false,
              },
            },
          ],
          fallback: DEFAULT_POLICY.fallback,
        };

        // The rule is in force from here until the off-ramp exists.
        await policyTurn.take();
        const drafted = await author.request.put(`${POLICIES}draft/`, {
          headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(author.request) },
          data: { policy, revision: 0 },
        });
        expect(drafted.status(), await drafted.text()).toBe(200);
        await reviewer.goto('/policies');
        await expect(
          reviewer.getByRole('list', { name: 'Changes from the active policy' }),
        ).toContainText(PAYOUTS);
        await publishOnItsPage(reviewer);

        // The initiator off-ramps 1,500 USDC: the review names the rule before anything is sent.
        await reviewOffRamp(initiator, world, chain, '1500');
        await expect(initiator.getByTestId('review-approvals')).toHaveText(
          `Needs 2 approvals from approvers or admins (rule “${PAYOUTS}”) before anything moves. The rule is fixed on the transaction when it is created.`,
        );
        await expectNoAxeViolations(initiator);
        const id = await sendOffRamp(initiator);
        // Frozen on the off-ramp: the default can come back for every other story.
        await policyTurn.end();

        // The first approval leaves it PENDING at 1 of 2: it waits for the second.
        await approveFirstOfTwo(approver, id, PAYOUTS);
        await expect(approver.getByTestId('approval-progress')).toContainText(
          'Waiting for one more of:',
        );
        await expectNoAxeViolations(approver);

        // Declined by the second admin, so its hold on the vault goes and nothing is paid out.
        await decideByApi(reviewer.request, base, id, 'reject');
      });

      await test.step("a rule made with the editor's defaults covers every category", async () => {
        const [chain, held] =
          Object.entries(await usdc()).sort(([, a], [, b]) => cmp(b, a))[0] ?? [];
        if (!chain || !held || cmp(held, '50000') < 0)
          throw new Error(`${treasury.name} holds $50,000 of USDC on no chain`);
        const deskName = world.subOrg.name;

        // The rule is in force from its draft until the off-ramp exists.
        await policyTurn.take();
        // The author adds a rule, leaving the categories as the editor starts them.
        const name = uniqueName('Large items on the desk');
        await author.goto('/policies');
        await focusLive(
          author.getByRole('button', { name: 'Begin a draft from the active policy' }),
        );
        await author.keyboard.press('Enter');
        const editor = author.getByRole('form', { name: 'New draft from the active policy' });
        await editor.getByRole('button', { name: 'Add rule' }).click();
        const rule = editor.getByRole('region', { name: /^Rule 1/ });
        const categories = rule.getByRole('group', { name: 'Categories' });
        await expect(
          categories.getByRole('checkbox', { name: 'Transfer', exact: true }),
        ).toHaveAccessibleDescription('Covers transfers and token transfers.');
        for (const box of await categories.getByRole('checkbox').all())
          await expect(box).not.toBeChecked();
        await rule.getByLabel('Rule name').fill(name);
        await rule.getByLabel('USD amount at or above').fill('10000');
        await rule.getByLabel('Approvals needed').fill('2');
        await rule.getByRole('checkbox', { name: deskName, exact: true }).check();
        await expectNoAxeViolations(author);
        await editor.getByRole('button', { name: 'Save draft' }).click();
        await expect(author.getByText(/Draft saved: revision \d+\./)).toBeFocused();

        // The second admin reads what the rule covers, in one line, and publishes it.
        const line = `Added as rule 1: ${name}: Any category ≥ $10,000.00 in ${deskName} → 2 approvals from anyone who may approve`;
        await reviewer.goto('/policies');
        await expect(
          reviewer.getByRole('list', { name: 'Changes from the active policy' }),
        ).toHaveText(line);
        await focusLive(reviewer.getByRole('link', { name: /^Review and publish revision \d+…$/ }));
        await reviewer.keyboard.press('Enter');
        await expectNoAxeViolations(reviewer);
        await approveOnItsPage(reviewer);

        // The off-ramp's review names the rule before anything is sent.
        await reviewOffRamp(initiator, world, chain, '50000');
        await expect(initiator.getByTestId('review-approvals')).toHaveText(
          `Needs 2 approvals from anyone who may approve (rule “${name}”) before anything moves. The rule is fixed on the transaction when it is created.`,
        );
        const id = await sendOffRamp(initiator);
        // Frozen on the off-ramp: the default can come back for every other story.
        await policyTurn.end();

        // One approval leaves it waiting for the second. The page in that state was scanned by
        // axe in the step before; only the rule's name differs.
        await approveFirstOfTwo(approver, id, name);

        // Declined by the second admin, so its hold on the vault's USDC goes and nothing is paid out.
        await decideByApi(reviewer.request, base, id, 'reject');
      });
    } finally {
      await initiator.context().close();
      await approver.context().close();
    }
  });
}
