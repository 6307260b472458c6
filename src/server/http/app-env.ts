import type { Logger } from 'pino';

/** What every request carries through the Hono app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The request's child logger: every line it writes names the request id. */
    log: Logger;
  };
}
