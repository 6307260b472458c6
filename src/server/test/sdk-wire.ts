import { signedInit, type SignOptions, type TestApiUser } from './api-client.ts';

/**
 * Requests as the provider's two SDKs put them on the wire (README, "What
 * the sandbox accepts from SDK clients"), built from what they are known to
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
