import { z } from 'zod';
import { positiveDecimalChecks } from './decimal-checks.ts';

/**
 * A strictly positive decimal string, as create bodies require for `amount`:
 * classic zod, for the write contract's schemas. Apart from decimal.ts, whose
 * arithmetic pages read (an approval card's figures) without any create body.
 */
export const PositiveDecimalString = z.string().check(...positiveDecimalChecks);
