import type { Page } from '@playwright/test';
import { signRequestToken } from '../src/server/protocol/api-token.ts';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';

// The worker's own admin, held to the worker's sub-organization: the API
// users it makes are held within it.

interface IssuedKey {
  apiKey: string;
  privateKeyHex: string;
}

/** Makes an API user through the page's form and reads its key from the one-time dialog. */
async function makeKey(
  page: Page,
  fields: { name: string; subOrgName: string; networks: string },
): Promise<IssuedKey> {
  const form = page.getByRole('form', { name: 'New API key' });
  await form.getByLabel('Name').fill(fields.name);
  await form.getByLabel(fields.subOrgName).check();
  await form.getByLabel('Allowed networks').fill(fields.networks);
  await form.getByRole('button', { name: 'Make the API key' }).click();
  const dialog = page.getByRole('dialog', { name: `The key of “${fields.name}”` });
  await expect(dialog).toContainText('you will not see it again');
  const apiKey = (await dialog.getByTestId('issued-api-key').textContent()) ?? '';
  const privateKeyHex = (await dialog.getByTestId('issued-private-key').textContent()) ?? '';
  expect(apiKey).not.toBe('');
  expect(privateKeyHex).toMatch(/^[0-9a-f]+$/);
  return { apiKey, privateKeyHex };
}

async function closeKeyDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('I have kept the private key somewhere safe').check();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
}

/** A read of the vaults, signed as the provider's JS SDK signs it, from this machine (127.0.0.1). */
async function listVaults(baseURL: string, key: IssuedKey) {
  const urlPath = '/api/external/vaults/';
  const token = signRequestToken({
    apiKey: key.apiKey,
    privateKey: key.privateKeyHex,
    urlPath,
  });
  const res = await fetch(`${baseURL}${urlPath}`, {
    headers: { 'Api-Key': key.apiKey, Authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

test('an admin makes API keys held to networks, changes a key’s networks, sees each key once, and revokes one', async ({
  page,
  baseURL,
  world,
}, testInfo) => {
  const origin = baseURL ?? '';
  const tag = `${testInfo.workerIndex}-${testInfo.repeatEachIndex}-${testInfo.retry}`;
  await page.goto('/settings/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await expectHydrated(page);
  await expectNoAxeViolations(page);

  // A network that leaves this machine out: the key is refused from here, 403.
  const elsewhere = await makeKey(page, {
    name: `Elsewhere bot ${tag}`,
    subOrgName: world.subOrg.name,
    networks: '192.0.2.0/24',
  });
  await expectNoAxeViolations(page);
  await closeKeyDialog(page);
  const refused = await listVaults(origin, elsewhere);
  expect(refused.status).toBe(403);
  expect(refused.body.code).toBe('IP_NOT_ALLOWED');

  // Its program moved to this machine: the networks changed in place, the same key served.
  const moved = `Elsewhere bot ${tag}`;
  const movedRow = page.getByRole('row').filter({ hasText: moved });
  await movedRow.getByRole('button', { name: `Change the networks of ${moved}` }).click();
  const networks = page.getByRole('dialog', { name: `Allowed networks of “${moved}”` });
  await expect(networks.getByLabel('Allowed networks')).toHaveValue('192.0.2.0/24');
  await networks.getByLabel('Allowed networks').fill('127.0.0.0/8\n::1/128');
  await expectNoAxeViolations(page);
  await networks.getByRole('button', { name: 'Save the networks' }).click();
  await expect(networks).toBeHidden();
  await expect(movedRow).toContainText('127.0.0.0/8, ::1/128');
  expect((await listVaults(origin, elsewhere)).status).toBe(200);

  // This machine allowed: served, and its last use shows on the page.
  const name = `Local bot ${tag}`;
  const local = await makeKey(page, {
    name,
    subOrgName: world.subOrg.name,
    networks: '127.0.0.0/8\n::1/128',
  });
  await closeKeyDialog(page);
  expect((await listVaults(origin, local)).status).toBe(200);
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByTestId('last-used')).not.toHaveText('Never');

  // Revoked: refused at once, 401, the row kept.
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Revoke “${name}”?` });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText('Revoked');
  const revoked = await listVaults(origin, local);
  expect(revoked.status).toBe(401);
  expect(revoked.body.code).toBe('API_KEY_REVOKED');
  await expectNoAxeViolations(page);
});
