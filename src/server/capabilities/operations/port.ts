import type {
  OperationMessageResponse,
  OperationUserActionRequest,
  OperationUserActionResponse,
} from '#contract/operations.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * An operation's user action, as either backend answers it: the message a
 * vault signer signs, and their approval or refusal of the operation.
 */
export interface OperationsPort {
  getOperationMessage(ctx: CustodyContext, operationId: string): Promise<OperationMessageResponse>;
  updateUserAction(
    ctx: CustodyContext,
    operationId: string,
    body: OperationUserActionRequest,
  ): Promise<OperationUserActionResponse>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends OperationsPort {}
}
