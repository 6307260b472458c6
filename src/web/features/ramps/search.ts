import * as z from 'zod/mini';
import { RAMP_KINDS } from '#contract/ramp-record.ts';

/** `/convert?kind=`: which conversion's form is open (an off-ramp unless said). */
export const ConvertSearch = z.object({
  kind: z.catch(z.optional(z.enum(RAMP_KINDS)), undefined),
});
