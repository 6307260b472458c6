import type { ApiErrorBody } from './common.ts';

/** One field's problem in an error body's `fields`. */
export type FieldProblem = NonNullable<ApiErrorBody['fields']>[number];

/**
 * A non-2xx answer of the API as both sides hold it: its HTTP status and its
 * `{message, code, fields?}` body (`ApiErrorBody`). The server throws it to
 * answer a client (anything else thrown is a bug and becomes a 500 that
 * reveals nothing, `src/server/app.ts`); the SPA's fetch client throws it for
 * every refusal it receives (`src/web/lib/api-client.ts`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** Server: headers to answer with, e.g. a `Retry-After` passed on from the custody API. */
  readonly headers: Record<string, string> = {};
  /** SPA: from a 429's `Retry-After`, how long to wait before trying again. */
  retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    /** Undefined only when the SPA received a body without one (e.g. a proxy's error page). */
    readonly code: string | undefined,
    message: string,
    readonly fields?: FieldProblem[],
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return {
      message: this.message,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.fields ? { fields: this.fields } : {}),
    };
  }
}
