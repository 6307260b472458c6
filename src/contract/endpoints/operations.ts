import { endpoint } from '../endpoint.ts';
import {
  OperationMessageResponse,
  OperationUserActionRequest,
  OperationUserActionResponse,
} from '../operations.ts';

/** An operation's user action (the SDKs' getOperationMessageToSign and updateUserAction). */

export const operationMessageToSign = endpoint({
  method: 'GET',
  path: '/api/external/operations/:operationId/operation_message_to_sign/',
  summary: 'The message a vault signer signs to act on an operation waiting for them.',
  action: 'read operation messages',
  permission: 'approve',
  audit: false,
  answer: OperationMessageResponse,
});

export const updateUserAction = endpoint({
  method: 'POST',
  path: '/api/external/operations/:operationId/update_user_action/',
  summary:
    "A vault signer's approval or refusal of an operation waiting for them, signed with their API key.",
  action: 'act on operations',
  permission: 'approve',
  audit: { action: 'operation.user_action', entityType: 'OPERATION', entityParam: 'operationId' },
  body: OperationUserActionRequest,
  answer: OperationUserActionResponse,
});
