import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEFAULT_POLICY, PolicyState, type Policy } from '../src/contract/policies.ts';
import { expect, isAlive, signInAs, test as signedInTest } from './auth.ts';

/**
 * Stories that need a transactions policy of their own for a moment: the
 * organization has one, and a policy kind one draft, so such stories take
 * turns through one lock. A turn lasts only while the story needs its rule
 * in force: the rule is frozen on an item when the item is created
 * (src/server/capabilities/policies/guard.ts), so a story takes its turn,
 * publishes, creates its items and ends the turn at once; approving and
 * declining them later is judged by the frozen rule, whatever is active
 * then. Holding the lock for a whole story (minutes of approvals and
 * scans) kept the other stories waiting past their patience.
 *
 * Rules published here must match only the story's own items, since every
 * other story runs meanwhile: each is held to a sub-organization, a
 * category or an amount no other story sends.
 */

const POLICIES = '/api/console/policies/transactions/';
/**
 * Longer than any turn should last: a turn is a publish and a few creates
 * (under a minute on a loaded machine), not a story. A waiter fails when the
 * one holder it waits on passes this, naming it; waiting behind several
 * short turns in a row is fine.
 */
const HOLD_LIMIT_MS = 90_000;
/** A lock directory naming no holder this long was left half made by a process that died. */
const UNNAMED_LIMIT_MS = 10_000;

async function csrfOf(request: APIRequestContext): Promise<string> {
  return ((await (await request.get('/auth/session')).json()) as { csrfToken: string }).csrfToken;
}

interface Holder {
  pid: number;
  holder: string;
  since: number;
}

function readHolder(file: string): Holder | null {
  try {
    const held = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof held.pid === 'number' ? (held as Holder) : null;
  } catch {
    // Not there or half written: the process taking the lock is writing it.
    return null;
  }
}

/**
 * The lock is a directory named for the server, held by this process and
 * naming the story holding it; one left by a process that is gone is taken
 * over. A holder keeping it too long fails the waiter, naming the holder.
 */
function policiesLock(baseURL: string, holder: string) {
  const dir = join(tmpdir(), `custody-console-policies-${new URL(baseURL).port}.lock`);
  const owner = join(dir, 'owner.json');
  let held = false;
  const take = (): boolean => {
    try {
      mkdirSync(dir);
    } catch {
      const current = readHolder(owner);
      if (!current || isAlive(current.pid)) return false;
      rmSync(dir, { recursive: true, force: true });
      return take();
    }
    writeFileSync(owner, JSON.stringify({ pid: process.pid, holder, since: Date.now() }));
    held = true;
    return true;
  };
  return {
    get held() {
      return held;
    },
    /** Resolves with how long it waited, in ms. */
    acquire: async (): Promise<number> => {
      const start = Date.now();
      let unnamedSince = start;
      // A lock held by another worker process has no event to await: it is polled.
      while (!take()) {
        const current = readHolder(owner);
        if (current) unnamedSince = Date.now();
        if (current && Date.now() - current.since > HOLD_LIMIT_MS)
          throw new Error(
            `the policies lock: “${current.holder}” (pid ${current.pid}) has held it for ${Math.round((Date.now() - current.since) / 1000)} s; a story holds it only while it publishes and creates its items`,
          );
        if (!current && Date.now() - unnamedSince > UNNAMED_LIMIT_MS)
          throw new Error(
            `the policies lock: ${dir} has named no holder for ${UNNAMED_LIMIT_MS / 1000} s`,
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return Date.now() - start;
    },
    release: () => {
      if (held) rmSync(dir, { recursive: true, force: true });
      held = false;
    },
  };
}

/** Makes `policy` the active one, drafted by `author` and published by `reviewer`; nothing if it is already. */
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

export interface PolicyTurn {
  /** The worker's organization-wide admin, in a browser of its own: it drafts. */
  author: Page;
  /** The worker's other organization-wide admin (not linked to the author), in a browser of its own: it publishes. */
  reviewer: Page;
  /**
   * Waits for the turn, then makes `policy` active (the default when none is
   * given, for a story that drafts and publishes its own on the page).
   */
  take(policy?: Policy): Promise<void>;
  /** Puts the default back and lets the next story have its turn; nothing when not taken. */
  end(): Promise<void>;
}

/**
 * `test` of e2e/auth.ts with a `policyTurn`: the two admins are signed in
 * before the turn is taken, and a turn a story left open (it failed or ran
 * out of time) is ended when the story is torn down. The story's timeout
 * grows by the time it waited for its turn. How long it waited and held
 * the turn is noted on the test ("policies lock").
 */
export const test = signedInTest.extend<{ policyTurn: PolicyTurn }>({
  policyTurn: [
    async ({ browser, baseURL, members }, use, testInfo) => {
      const base = baseURL ?? '';
      const author = await (await browser.newContext({ baseURL: base })).newPage();
      const reviewer = await (await browser.newContext({ baseURL: base })).newPage();
      await signInAs(author, members.orgAdmin, base);
      await signInAs(reviewer, members.orgAdmin2, base);
      const lock = policiesLock(base, `${testInfo.titlePath.slice(1).join(' › ')}`);
      let waited = 0;
      let since = 0;
      const turn: PolicyTurn = {
        author,
        reviewer,
        take: async (policy = DEFAULT_POLICY) => {
          if (lock.held) throw new Error('this story has its policy turn already');
          waited = await lock.acquire();
          since = Date.now();
          // Time spent on another story's turn is not this story's: its own time is kept whole.
          if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + waited);
          await publish(author, reviewer, base, policy);
        },
        end: async () => {
          if (!lock.held) return;
          try {
            await publish(author, reviewer, base, DEFAULT_POLICY);
          } finally {
            lock.release();
            testInfo.annotations.push({
              type: 'policies lock',
              description: `waited ${(waited / 1000).toFixed(1)} s, held ${((Date.now() - since) / 1000).toFixed(1)} s`,
            });
          }
        },
      };
      try {
        await use(turn);
      } finally {
        try {
          await turn.end();
        } finally {
          await author.context().close();
          await reviewer.context().close();
        }
      }
    },
    // Two admins' sign-ins (password and recovery code each) are setup, not the story: on a
    // loaded machine they took a story past its own time, so they get a time of their own.
    { timeout: 60_000 },
  ],
});

export { expect };
