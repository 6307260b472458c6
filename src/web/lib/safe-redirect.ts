/**
 * Where to go after signing in. Only a path on this origin is accepted, so a
 * crafted `/login?redirect=https://evil.example` cannot send a member who
 * just typed their password to another site. Anything else goes home (the overview).
 */
export const DEFAULT_AFTER_LOGIN = '/';

const ORIGIN = 'http://console.invalid';

function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value === '') return DEFAULT_AFTER_LOGIN;
  // Protocol-relative (//host), backslash tricks (/\host) and control
  // characters that browsers strip before parsing are all refused outright.
  if (!value.startsWith('/') || value.startsWith('//') || hasUnsafeCharacter(value)) {
    return DEFAULT_AFTER_LOGIN;
  }
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
  if (url.origin !== ORIGIN) return DEFAULT_AFTER_LOGIN;
  // Never back to the sign-in page itself.
  if (url.pathname === '/login') return DEFAULT_AFTER_LOGIN;
  return `${url.pathname}${url.search}${url.hash}`;
}
