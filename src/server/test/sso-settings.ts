import { expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { SsoSettings } from '#contract/sso.ts';
import type { TestApp } from './test-app.ts';

/**
 * Saves single sign-on settings as the app's admin and, when the save waits
 * for another admin (it widens access), approves it as a second admin of
 * every sub-organization: the settings then stand as saved.
 */
export async function saveSsoSettingsApproved(t: TestApp, body: unknown): Promise<SsoSettings> {
  const saved = await t.admin.json('/api/console/sso/', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const pending = SsoSettings.parse(saved.body).pendingChange;
  if (!pending) return SsoSettings.parse(saved.body);
  const other = await t.signIn('admin', { name: 'Second Admin' });
  const approved = await other.json(pathOf(decideApprovable, { entityId: pending.id }), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'approve' }),
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  return SsoSettings.parse(await (await t.admin.request('/api/console/sso/')).json());
}
