import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { App } from '../app.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { signApprovalMessage } from '../protocol/api-token.ts';
import {
  approvalMessage,
  type ChangeRequestEntityType,
} from '../custody/sandbox/change-request.ts';
import type { Database } from '../db/client.ts';
import { changeRequests } from '../db/schema/sandbox.ts';
import { signedInit, type SignOptions, type TestApiUser } from './api-client.ts';

/** Change requests for approval tests: made directly, and decided the way an API client does. */

export async function createChangeRequest(
  db: Database,
  values: {
    orgId: string;
    entityType: ChangeRequestEntityType;
    entityId: string;
    createdById: string;
    createdByType?: 'API_USER' | 'STAFF' | 'ANONYMOUS';
  },
) {
  const id = randomUUID();
  const approvalId = randomUUID();
  const createdAt = new Date();
  const [row] = await db
    .insert(changeRequests)
    .values({
      id,
      approvalId,
      status: 'PENDING',
      createdByType: 'API_USER',
      ...values,
      approvalMessage: approvalMessage({ approvalId, changeRequestId: id, createdAt, ...values }),
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  if (!row) throw new Error('createChangeRequest: nothing inserted');
  return row;
}

export async function changeRequestOf(db: Database, entityId: string) {
  const [row] = await db.select().from(changeRequests).where(eq(changeRequests.entityId, entityId));
  return row;
}

/** GET the approval message as `user`, then POST the action with `user`'s signature of it. */
export async function decideAs(
  app: Pick<App, 'request'>,
  user: TestApiUser,
  entityId: string,
  body: { action: 'approve' | 'reject'; reason?: string | null; signature?: string | null },
  options: SignOptions = {},
) {
  const messageUrl = `${paths.approvalMessage()}${toQueryString({ entityId })}`;
  const messageRes = await app.request(messageUrl, signedInit(user, 'GET', messageUrl));
  if (messageRes.status !== 200) {
    return { status: messageRes.status, body: (await messageRes.json()) as unknown };
  }
  const message = ApprovalMessageResponse.parse(await messageRes.json());
  const { signature, ...rest } = body;
  const action = {
    ...rest,
    ...(signature === null
      ? {}
      : { signature: signature ?? signApprovalMessage(message.message, user.privateKeyHex) }),
  };
  const url = paths.approvalAction(message.approvalId);
  const res = await app.request(url, signedInit(user, 'POST', url, action, options));
  return {
    status: res.status,
    body: (await res.json()) as unknown,
    approvalId: message.approvalId,
  };
}
