import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { MEMBER_KEYS, type Sessions, type WorkerMembers } from './worker-members.ts';
import type { WorkerWorld, WorldSubOrg } from './worker-world.ts';

/**
 * A worker's members and world, kept beside the run's data directory under
 * the worker's parallel index. The run's global set-up (e2e/global-setup.ts)
 * makes one for each worker the run may start, all at once, before the
 * first story; the first worker of each parallel index takes its own.
 * Playwright replaces a worker after a failed story with a new process of
 * the same parallel index: it finds them here instead of making them again
 * (a minute or two on a loaded machine), so a failure costs one story, not
 * a world. The data directory is the run's own, so a file never outlives
 * its server. Two workers running at once never share a parallel index.
 */
export interface WorkerState {
  tag: string;
  subOrg: WorldSubOrg;
  members: WorkerMembers;
  world: WorkerWorld;
  /** Each member's session, by email: kept from its first sign-in, replaced when the server ends it. */
  sessions: Sessions;
  /** What making it took, step by step (ms), for the report's `worker set-up` note. */
  setUp: Array<[string, number]>;
  /** Set by the first worker that takes it; a later one (after a failed story) checks it first. */
  taken?: boolean;
}

function stateFile(parallelIndex: number): string {
  return `${process.env.E2E_DATA_DIR ?? ''}.worker-${parallelIndex}.json`;
}

export function readWorkerState(parallelIndex: number): WorkerState | undefined {
  const file = stateFile(parallelIndex);
  if (!process.env.E2E_DATA_DIR || !existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as WorkerState;
}

/**
 * Written whenever a member's recovery codes change, before the code taken
 * is sent: a worker stopped in between leaves a code unused, never one
 * spent on the list.
 */
export function writeWorkerState(parallelIndex: number, state: WorkerState): void {
  if (!process.env.E2E_DATA_DIR) return;
  writeFileSync(stateFile(parallelIndex), JSON.stringify(state, null, 2));
}

/**
 * Whether the kept world is still whole, asked by `admin` (signed in as its
 * organization-wide admin): every member there and enabled in its role,
 * its vaults, contacts and bank account there. What a story left half done
 * (a transfer waiting, a setting changed on a member it made) is not the
 * world's: stories make their own items.
 */
export async function isWhole(admin: APIRequestContext, state: WorkerState): Promise<boolean> {
  // The worker's members carry its tag: one page holds them all.
  const staff = await admin.get(`/api/console/staff/?q=${encodeURIComponent(state.tag)}&limit=100`);
  if (!staff.ok()) return false;
  const { results } = (await staff.json()) as {
    results: Array<{ email: string; role: string; disabled: boolean }>;
  };
  const enabled = MEMBER_KEYS.every((key) => {
    const member = state.members[key];
    return results.some((s) => s.email === member.email && s.role === member.role && !s.disabled);
  });
  if (!enabled) return false;
  const { world } = state;
  const reads = [
    `/api/external/vaults/${world.funded.id}/detailed_balances/`,
    `/api/external/vaults/${world.empty.id}/detailed_balances/`,
    `/api/external/contacts/${world.ethereum.id}/`,
    `/api/external/contacts/${world.tron.id}/`,
    `/api/external/bank_accounts/${world.bankAccount.id}/`,
  ];
  for (const url of reads) if (!(await admin.get(url)).ok()) return false;
  return true;
}
