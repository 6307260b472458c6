import type * as z from 'zod/mini';

// One class for both sides (src/contract/api-error.ts); the SPA imports it from here with its siblings.
import { ApiError } from '#contract/api-error.ts';

export { ApiError };

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
  if (error instanceof ApiError) {
    const message = asSentence(error.message);
    if (error.retryAfterSeconds === undefined) return message;
    const wait = error.retryAfterSeconds;
    return `${message} Try again in ${wait} second${wait === 1 ? '' : 's'}.`;
  }
  if (error instanceof NetworkError) {
    return 'The console server could not be reached. Check your connection and try again.';
  }
  if (error instanceof ResponseValidationError) {
    return 'The server sent a response the console does not understand.';
  }
  if (error instanceof Error && error.message) return asSentence(error.message);
  return 'Something went wrong.';
}

/**
 * A server's message as a sentence, so it reads before and after the
 * console's own ("Internal error. Nothing you entered was lost."): a capital
 * first letter and a full stop.
 */
export function asSentence(message: string): string {
  const text = message.trim();
  if (text === '') return text;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** 4xx answers other than timeouts and rate limits will fail the same way again. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) {
    return error.status >= 500 || error.status === 408 || error.status === 429;
  }
  return error instanceof NetworkError;
}

/**
 * A `Retry-After` header in whole seconds: either a number of seconds or an
 * HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  // eslint-disable-next-line no-restricted-syntax -- Retry-After in seconds
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
