import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import {
  decideUserAction,
  operationMessageFor,
} from '../../../custody/sandbox/engine/user-action.ts';
import type { OperationsPort } from '../port.ts';

/** Operations' user actions over the sandbox's transactions (engine/user-action.ts). */
export function operationsSandbox({
  db,
  clock,
  orgIdFor,
}: Pick<SandboxDeps, 'db' | 'clock' | 'orgIdFor'>): OperationsPort {
  return {
    getOperationMessage: async (ctx, operationId) =>
      operationMessageFor(db, await orgIdFor(ctx), ctx.actor, operationId),
    updateUserAction: async (ctx, operationId, body) =>
      decideUserAction(db, {
        orgId: await orgIdFor(ctx),
        actor: ctx.actor,
        operationId,
        body,
        now: clock.now(),
      }),
  };
}
