import type { z } from 'zod';
import type { ApiErrorBody } from '../../contract/common.ts';

/** The API answered with a non-2xx status; `message`/`code` come from its `{message, code}` body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | undefined;
  readonly fields: ApiErrorBody['fields'];

  constructor(
    status: number,
    message: string,
    options: { code?: string | undefined; fields?: ApiErrorBody['fields'] } = {},
  ) {
    super(message);
    this.status = status;
    this.code = options.code;
    this.fields = options.fields;
  }
}

/** The request never got an HTTP answer (offline, DNS, connection reset, body cut short). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The API answered 2xx but with something that is not the documented shape. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  readonly status: number;
  readonly path: string;
  readonly issues: z.core.$ZodIssue[];
  constructor(path: string, status: number, message: string, issues: z.core.$ZodIssue[] = []) {
    super(message);
    this.path = path;
    this.status = status;
    this.issues = issues;
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** What a person should read for any error a query or mutation may throw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof NetworkError) {
    return 'The console server could not be reached. Check your connection and try again.';
  }
  if (error instanceof ResponseValidationError) {
    return 'The server sent a response the console does not understand.';
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** 4xx answers other than timeouts and rate limits will fail the same way again. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) {
    return error.status >= 500 || error.status === 408 || error.status === 429;
  }
  return error instanceof NetworkError;
}
