import * as z from 'zod/mini';

/**
 * A positive amount's checks, for the forms' and the write endpoints' schemas:
 * apart from the string half of the decimal module (decimal-format.ts), which
 * every page showing an amount loads, so that showing amounts carries none of
 * what checking them needs (ARCHITECTURE.md, "First load").
 */

const UNSIGNED_DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A strictly positive decimal string's checks, for either zod flavour: its
 * form first (and nothing more said when that fails), then zero refused. Read
 * from the digits, so checking an amount needs no arithmetic.
 */
export const positiveDecimalChecks = [
  z.regex(UNSIGNED_DECIMAL, {
    message: 'must be a positive decimal number written as a string, like "12.5"',
    abort: true,
  }),
  z.refine<string>((v) => /[1-9]/.test(v), 'must be greater than zero'),
] as const;

/** decimal.ts's PositiveDecimalString for zod/mini schemas (the contract modules of the first load). */
export const PositiveDecimal = z.string().check(...positiveDecimalChecks);
