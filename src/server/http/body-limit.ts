import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES } from '../../contract/common.ts';
import type { AppEnv } from './app-env.ts';
import { ApiError } from '../../contract/api-error.ts';

/**
 * Request body size limits (README, "Security"), enforced before anything
 * reads the body: a declared Content-Length above the limit is refused
 * unread, and a chunked body is counted as it arrives and refused the moment
 * it passes the limit. The largest real body is a contract call's calldata,
 * far below the API's limit; a sign-in is two short strings.
 */
export const MAX_API_BODY_BYTES = 1024 * 1024;
export const MAX_AUTH_BODY_BYTES = 16 * 1024;

const describe = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(
        413,
        ERROR_CODES.bodyTooLarge,
        `The request body is larger than ${describe(maxBytes)} (${maxBytes} bytes), the most this endpoint accepts`,
      );
    },
  });
  // A GET or HEAD has no body to count (a fetch Request drops one), and asking
  // for it builds the whole Request object, a tenth of a list page's time.
  return (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next));
}
