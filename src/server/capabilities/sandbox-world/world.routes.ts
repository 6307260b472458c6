import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createSandboxSubOrg,
  depositToSandboxVault,
  passSandboxStakingEpochs,
  surgeSandboxFees,
} from '#contract/endpoints/sandbox-world.ts';
import { unauthorized } from '../../auth/session-auth.ts';
import { outsideAdminScope } from '../../console/admin-scope.ts';
import { inScope } from '../../console/scope-rules.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import type { SandboxWorldAdmin } from './port.ts';

/**
 * The sandbox's tools for making a world to work in (contract/endpoints/
 * sandbox-world.ts): a sub-organization, and money deposited into a vault.
 * An admin's only; a sub-organization is the organization's, so only an
 * admin of all of them makes one, while a deposit needs the vault in the
 * admin's scope (read through the scoped backend: 404 outside it), as does
 * a fee surge its sub-organization.
 * Upstream, the provider makes both: 409.
 */
export function sandboxWorldRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();

  function tools(): SandboxWorldAdmin {
    const world = backend.sandboxWorld;
    if (!world)
      throw new ApiError(
        409,
        ERROR_CODES.sandboxOnly,
        'The console acts on an upstream custody service: its sub-organizations and funds are made with the provider, not here (the sandbox only)',
      );
    return world;
  }

  mount(
    app,
    CONSOLE_API_PREFIX,
    createSandboxSubOrg,
    async ({ body }, c: Context<AppEnv>) => {
      const member = c.get('staff');
      if (!member) throw unauthorized();
      if (member.subOrgIds)
        throw outsideAdminScope(
          'A sub-organization is the organization’s: only an admin of every sub-organization may make one',
        );
      return tools().createSubOrg(custodyContext(c), body);
    },
    {
      audit: {
        summary: (answer) => `Sandbox sub-organization "${String(answer.name ?? '')}" created`,
      },
    },
  );

  mount(
    app,
    CONSOLE_API_PREFIX,
    depositToSandboxVault,
    async ({ params: { vaultId }, body }, c) => {
      const world = tools();
      const ctx = custodyContext(c);
      await backend.getVault(ctx, vaultId);
      return world.deposit(ctx, vaultId, body);
    },
    {
      audit: {
        summary: (answer) =>
          `Sandbox deposit of ${String(answer.amount ?? '')} ${String(answer.asset ?? '')} on ${String(answer.blockChain ?? '')}`,
      },
    },
  );
  mount(
    app,
    CONSOLE_API_PREFIX,
    passSandboxStakingEpochs,
    async ({ params: { vaultId }, body }, c) => {
      const world = tools();
      const ctx = custodyContext(c);
      await backend.getVault(ctx, vaultId);
      return world.passStakingEpochs(ctx, vaultId, body);
    },
    {
      audit: {
        summary: (answer) =>
          `Sandbox staking epochs passed on ${String(answer.chain ?? '')}: ${Array.isArray(answer.rewards) ? answer.rewards.length : 0} ${String(answer.asset ?? '')} reward(s) paid`,
      },
    },
  );
  mount(
    app,
    CONSOLE_API_PREFIX,
    surgeSandboxFees,
    async ({ params: { subOrgId }, body }, c) => {
      const world = tools();
      const ctx = custodyContext(c);
      // Outside a restricted admin's sub-organizations it is not found, as any of its items.
      if (!inScope(ctx, subOrgId))
        throw new ApiError(404, ERROR_CODES.notFound, `No sub-organization with id "${subOrgId}"`);
      return world.surgeFees(ctx, subOrgId, body);
    },
    {
      audit: {
        summary: (answer) =>
          `Sandbox fee surge on ${String(answer.chain ?? '')}: ×${String(answer.factor ?? '')}${answer.steady === true ? ' of the calm market' : ''} until ${String(answer.until ?? '')}`,
      },
    },
  );
  return app;
}
