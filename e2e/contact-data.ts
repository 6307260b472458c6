import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect } from './auth.ts';
import { csrf } from './create-forms.ts';

export const CONTACTS_PATH = '/api/external/contacts/';

/** An Ethereum address nobody else uses, lowercase. */
export const freshAddress = () => `0x${randomBytes(20).toString('hex')}`;

/** Proposes an Ethereum contact for ETH on a fresh address, as the signed-in member, through the API. */
export async function proposeContactByApi(page: Page, baseURL: string, name: string) {
  const res = await page.request.post(CONTACTS_PATH, {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': await csrf(page) },
    data: { name, blockChain: 'ETHEREUM', address: freshAddress(), assetList: ['ETH'] },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string; name: string };
}
