import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { DEFAULT_POLICY, PolicyState, type Policy } from '../src/contract/policies.ts';
import { expect, isAlive, signInAs, type WorkerMembers } from './auth.ts';

/**
 * A story that needs a transactions policy of its own for a moment: the
 * organization has one, so such stories take turns through the same lock
 * directory e2e/policies.spec.ts takes, publish their rule with two admins
 * (the worker's organization-wide admin drafts, its other admin publishes), and put the
 * default back however they end. Rules published here must match only the
 * story's own items, since every other story runs meanwhile.
 */

const POLICIES = '/api/console/policies/transactions/';

async function csrfOf(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/auth/session')).json()) as { csrfToken: string }).csrfToken;
}

/**
 * A policy kind has one draft at a time, by design: the stories that publish
 * one (the policies spec, and any story taking a turn here) take turns. The
 * lock is a directory named for the server, held by this process; one left by
 * a process that is gone is taken over.
 */
export function policiesLock(baseURL: string) {
  const dir = join(tmpdir(), `custody-console-policies-${new URL(baseURL).port}.lock`);
  const owner = join(dir, 'pid');
  let held = false;
  const take = (): boolean => {
    try {
      mkdirSync(dir);
    } catch {
      const pid = Number(readFileSync(owner, { encoding: 'utf8', flag: 'a+' }));
      if (!pid || isAlive(pid)) return false;
      rmSync(dir, { recursive: true, force: true });
      return take();
    }
    writeFileSync(owner, String(process.pid));
    held = true;
    return true;
  };
  return {
    acquire: () =>
      expect
        .poll(take, { timeout: 60_000, intervals: [250], message: 'the policies lock' })
        .toBe(true),
    release: () => {
      if (held) rmSync(dir, { recursive: true, force: true });
      held = false;
    },
  };
}

async function publish(author: Page, reviewer: Page, baseURL: string, policy: Policy) {
  const origin = new URL(baseURL).origin;
  const state = PolicyState.parse(await (await author.request.get(POLICIES)).json());
  if (state.draft)
    await author.request.delete(`${POLICIES}draft/`, {
      headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(author.request) },
    });
  if (JSON.stringify(state.active.policy) === JSON.stringify(policy)) return;
  const drafted = await author.request.put(`${POLICIES}draft/`, {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(author.request) },
    data: { policy, revision: 0 },
  });
  expect(drafted.status(), await drafted.text()).toBe(200);
  const published = await reviewer.request.post(`${POLICIES}draft/publish/`, {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(reviewer.request) },
    data: { revision: ((await drafted.json()) as { revision: number }).revision },
  });
  expect(published.status(), await published.text()).toBe(200);
}

/** Holds the policies lock, publishes `policy`; `end` puts the default back and lets go. */
export async function takePolicyTurn(
  browser: Browser,
  baseURL: string,
  members: WorkerMembers,
  policy: Policy,
) {
  const lock = policiesLock(baseURL);
  await lock.acquire();
  const author = await (await browser.newContext({ baseURL })).newPage();
  const reviewer = await (await browser.newContext({ baseURL })).newPage();
  try {
    await signInAs(author, members.orgAdmin, baseURL);
    await signInAs(reviewer, members.admin, baseURL);
    await publish(author, reviewer, baseURL, policy);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    end: async () => {
      try {
        await publish(author, reviewer, baseURL, DEFAULT_POLICY);
        await author.context().close();
        await reviewer.context().close();
      } finally {
        lock.release();
      }
    },
  };
}
