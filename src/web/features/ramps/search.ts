import * as z from 'zod/mini';
import { CONVERT_KINDS } from './kinds.ts';

/** `/convert?kind=`: which conversion's form is open (an off-ramp unless said). */
export const ConvertSearch = z.object({
  kind: z.catch(z.optional(z.enum(CONVERT_KINDS)), undefined),
});
