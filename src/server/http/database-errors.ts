/**
 * PostgreSQL's SQLSTATE class 22, "data exception": the database refused a
 * value (an impossible date, a NUL byte in text, a number out of range). The
 * routes validate what they can first; this is the net under them, so bad
 * input that still reaches the database is a 400, never a 500.
 */
export function isDataException(error: unknown): boolean {
  let current: unknown = error;
  // Drizzle wraps the driver's error in `cause`.
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
