import * as z from 'zod/mini';
import { PolicyKind } from '#contract/policy-kind.ts';

/** `/policies?kind=`: which policy is shown (transactions unless said; anything else reads as that). */
export const PoliciesSearch = z.object({
  kind: z.catch(z.optional(PolicyKind), undefined),
});
