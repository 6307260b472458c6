import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../src/server/auth/staff-demo.ts';

/**
 * Browser stories sign in as their Playwright worker's own members
 * (e2e/auth.ts), never as the sandbox's shared demo members: stories in two
 * workers that shared a member saw each other's items, counts and sessions.
 * Only the story about the demo sign-in itself (e2e/auth.spec.ts) and the
 * fixture that offers it (e2e/auth.ts) may name them.
 */
const e2e = new URL('../e2e/', import.meta.url);
const ALLOWED = new Set(['auth.spec.ts', 'auth.ts']);

/** What signing in as a demo member looks like in a story's text. */
const DEMO_SIGNS = [
  'signInAsDemoMember',
  'demoAccount(',
  '/auth/demo-accounts',
  ...DEMO_STAFF.flatMap((member) => [member.email, member.name]),
];

/** The demo signs in `text`, each with its line number. */
export function demoSignsIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      DEMO_SIGNS.filter((sign) => line.includes(sign)).map((sign) => `${i + 1}: ${sign}`),
    );
}

describe('browser stories sign in as their own members', () => {
  it('finds a demo sign-in wherever one is written', () => {
    expect(demoSignsIn("await signInAsDemoMember(page, 'admin', baseURL);")).toEqual([
      '1: signInAsDemoMember',
    ]);
    expect(demoSignsIn("x\nconst a = await demoAccount(page.request, 'approver');")).toEqual([
      '2: demoAccount(',
    ]);
    expect(demoSignsIn("await expect(row).toContainText('Ivan Initiator');")).toEqual([
      '1: Ivan Initiator',
    ]);
    expect(demoSignsIn("await signIn(page, 'admin', baseURL);")).toEqual([]);
  });

  it('no story but the demo sign-in names a demo member or signs in as one', () => {
    const found = readdirSync(e2e)
      .filter((name) => name.endsWith('.ts') && !ALLOWED.has(name))
      .flatMap((name) =>
        demoSignsIn(readFileSync(new URL(name, e2e), 'utf8')).map((hit) => `e2e/${name}:${hit}`),
      );
    expect(found).toEqual([]);
  });
});
