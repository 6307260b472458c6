import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody } from '../../contract/common.ts';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * An error meant for the client: it carries the HTTP status and the
 * `{message, code, fields?}` body the API answers with. Anything else thrown
 * is a bug and becomes a 500 that reveals nothing (see app.ts).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** Headers to answer with, e.g. a `Retry-After` passed on from the custody API. */
  headers: Record<string, string> = {};
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: FieldProblem[],
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    return this.fields
      ? { message: this.message, code: this.code, fields: this.fields }
      : { message: this.message, code: this.code };
  }
}
