import { CSRF_HEADER } from '#contract/staff-record.ts';

/**
 * The current session's CSRF token, held in memory only (never in storage):
 * the session feature sets it whenever it learns the session, and the
 * default API client sends it on every request.
 */
let token: string | undefined;

export function setCsrfToken(next: string | undefined): void {
  token = next;
}

export function csrfHeaders(): Record<string, string> {
  return token ? { [CSRF_HEADER]: token } : {};
}
