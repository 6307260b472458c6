/**
 * Text that a person reads on an approval screen must read as it is stored.
 * Unicode's format characters (category Cf) change how text displays
 * without showing themselves: the bidirectional controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C) reorder what follows, so
 * "Acme Ltd\u202E1234" shows its digits reversed, and the zero-width ones
 * (U+200B–U+200D, U+2060, U+FEFF, the soft hyphen U+00AD…) make two
 * different names look identical. Fields people approve on (bank-account
 * text, staff names, a transaction's memo and externalId) refuse them.
 * A one-line field also refuses control characters (Cc: tabs, line breaks,
 * U+0000–U+001F, U+007F–U+009F) and the line and paragraph separators
 * U+2028 and U+2029.
 *
 * Plain functions, so that classic zod (the forms' rules) and zod/mini (the
 * session and staff shapes) both use them: `displayTextProblem` in a
 * refinement, whose message names the field, the rule and the character.
 */

const FORMAT = /\p{Cf}/u;
const ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

export type DisplayTextKind = 'one-line' | 'multi-line';

/**
 * Why `value` cannot be shown faithfully as `field`, or null when it can:
 * "accountName must not contain invisible or text-direction characters
 * (Unicode format characters); found U+202E".
 */
export function displayTextProblem(
  field: string,
  value: string,
  kind: DisplayTextKind = 'one-line',
): string | null {
  const found = (kind === 'one-line' ? ONE_LINE : FORMAT).exec(value);
  if (!found) return null;
  const rule =
    kind === 'one-line'
      ? 'control, line-break, invisible or text-direction characters'
      : 'invisible or text-direction characters (Unicode format characters)';
  return `${field} must not contain ${rule}; found ${codePoint(found[0])}`;
}
