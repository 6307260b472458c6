import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { signApprovalMessage } from '../protocol/api-token.ts';
import { createTestApiUser, signedInit, type SignOptions, type TestApiUser } from './api-client.ts';
import type { EngineTestApp } from './engine-test-app.ts';

/**
 * Requests as the provider's two SDKs put them on the wire (docs/api-clients.md,
 * "What the sandbox accepts from SDK clients"), built from what they are known to
 * send rather than from their code:
 *
 * - the JS SDK: `JSON.stringify` of the body (compact, unset fields left
 *   out), an unpadded base64url token;
 * - the Python SDK: `requests`' `json=` encoding (`", "` and `": "`
 *   separators, non-ASCII escaped as `\uXXXX`, keys in the order written,
 *   unset fields as `null`), `dataSignatureHex` appended to every body, and
 *   a token in padded base64url.
 */

export type Sdk = 'js' | 'python';

export function sdkRequest(
  sdk: Sdk,
  user: TestApiUser,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: Record<string, unknown>,
  options: Omit<SignOptions, 'sdk'> = {},
): RequestInit {
  const init = signedInit(user, method, url, body, { ...options, sdk });
  if (sdk === 'js' || typeof init.body !== 'string') return init;
  // signedInit wrote the body (dataSignatureHex last) compactly; Python's bytes differ.
  return { ...init, body: pythonJson(JSON.parse(init.body) as unknown) };
}

/** Python's `json.dumps(value)` with its defaults. */
export function pythonJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${asciiString(k)}: ${pythonJson(v)}`);
    return `{${members.join(', ')}}`;
  }
  if (typeof value === 'string') return asciiString(value);
  return JSON.stringify(value);
}

const asciiString = (text: string) =>
  JSON.stringify(text).replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * An API client calling the app as either SDK sends its requests (`sdkRequest`), answers
 * read as text and JSON, and the SDKs' approve.
 */
export interface SdkCaller {
  user: TestApiUser;
  call(
    sdk: Sdk,
    method: 'GET' | 'POST',
    url: string,
    body?: Record<string, unknown>,
    urlPath?: string,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string }>;
  /** The SDKs' approve: the approval message (the JS SDK signs its path alone), signed, sent. */
  approve(sdk: Sdk, entityId: string): Promise<void>;
}

export async function sdkCaller(
  t: EngineTestApp,
  name: string,
  subOrgIds: string[] | null = null,
): Promise<SdkCaller> {
  const user = await createTestApiUser(t, name, t.orgId, subOrgIds);
  const call: SdkCaller['call'] = async (sdk, method, url, body, urlPath) => {
    const init = sdkRequest(sdk, user, method, url, body, urlPath ? { urlPath } : {});
    const res = await t.app.request(url, init);
    const text = await res.text();
    return {
      status: res.status,
      body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
      text,
    };
  };
  return {
    user,
    call,
    async approve(sdk, entityId) {
      const path = paths.approvalMessage();
      const got = await call(sdk, 'GET', `${path}?entityId=${entityId}`, undefined, path);
      if (got.status !== 200) throw new Error(`approval message: ${got.text}`);
      const approval = ApprovalMessageResponse.parse(got.body);
      const decided = await call(sdk, 'POST', paths.approvalAction(approval.approvalId), {
        action: 'approve',
        signature: signApprovalMessage(approval.message, user.privateKeyHex),
        reason: 'ok',
      });
      if (decided.status !== 200) throw new Error(`approval action: ${decided.text}`);
    },
  };
}
