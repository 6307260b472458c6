/** A case-insensitive "contains" pattern with LIKE's wildcards taken literally: the lists' name filters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * A name filter sent as a LIKE pattern (the JS SDK's `"%Acme%"`): `%` stays
 * the wildcard; `_` and the escape are matched as themselves. Without a
 * `%`, the text is matched as a part of the name.
 */
export function namePattern(text: string): string {
  return text.includes('%') ? text.replace(/[\\_]/g, (ch) => `\\${ch}`) : containsPattern(text);
}
