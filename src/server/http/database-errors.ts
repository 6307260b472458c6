/**
 * PostgreSQL's SQLSTATE class 22, "data exception": the database refused a
 * value (an impossible date, a NUL byte in text, a number out of range). The
 * routes validate what they can first; this is the net under them, so bad
 * input that still reaches the database is a 400, never a 500.
 */
export function isDataException(error: unknown): boolean {
  return dataException(error) !== undefined;
}

function dataException(error: unknown): { code: string; column?: unknown } | undefined {
  let current: unknown = error;
  // Drizzle wraps the driver's error in `cause`.
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, column } = current as { code?: unknown; column?: unknown };
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return { code, column };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The client's message for a data exception: the column when the database
 * names it, never the value (the error's own text may quote it; see
 * src/server/logged-error.ts for what the log keeps).
 */
export function dataExceptionMessage(error: unknown): string {
  const column = dataException(error)?.column;
  return typeof column === 'string' && column !== ''
    ? `${column} has a value the database cannot accept`
    : 'A parameter has a value the database cannot accept';
}
