import type { APIRequestContext } from '@playwright/test';
import { makeWorkerMembers, type Cookies } from './worker-members.ts';
import { makeSubOrg, makeWorkerWorld } from './worker-world.ts';
import type { WorkerState } from './worker-state.ts';

/**
 * Makes one worker's sub-organization, members and world
 * (e2e/worker-members.ts, e2e/worker-world.ts), through the API as an
 * admin would. `maker` and `checker` are request contexts signed in as the
 * two CLI-made admins; `newContext` makes a request context on the sandbox
 * server, holding the given session or none. Every member signs in once,
 * at its set-up: that session is kept (`sessions`) and is the one the world
 * is made with and the one the stories start on.
 */
export async function makeWorkerState(options: {
  maker: APIRequestContext;
  checker: APIRequestContext;
  newContext: (cookies?: Cookies) => Promise<APIRequestContext>;
  origin: string;
  tag: string;
}): Promise<WorkerState> {
  const { maker, checker, newContext, origin, tag } = options;
  const setUp: Array<[string, number]> = [];
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    try {
      return await work();
    } finally {
      setUp.push([name, Date.now() - start]);
    }
  };
  const subOrg = await timed('sub-organization', () => makeSubOrg(maker, origin, tag));
  const { members, sessions } = await timed('members', () =>
    makeWorkerMembers({
      maker,
      checker,
      fresh: () => newContext(),
      origin,
      tag,
      subOrgId: subOrg.id,
    }),
  );
  const world = await timed('world', async () => {
    const signedIn = (email: string) => newContext(sessions[email]);
    const admin = await signedIn(members.orgAdmin.email);
    const deciders = [
      await signedIn(members.approver.email),
      await signedIn(members.approver2.email),
    ];
    try {
      return await makeWorkerWorld({ admin, deciders, origin, tag, subOrg });
    } finally {
      for (const request of [admin, ...deciders]) await request.dispose();
    }
  });
  return { tag, subOrg, members, world, sessions, setUp };
}
