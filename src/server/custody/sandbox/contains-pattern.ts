/** A case-insensitive "contains" pattern with LIKE's wildcards taken literally: the lists' name filters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
