import { z } from 'zod';
import { displayTextProblem } from './display-text.ts';

/**
 * A new sub-organization of the caller's organization: the SDKs' createSubOrg
 * sends its name alone (the provider makes every one MANAGED), and the
 * sandbox's own tool takes the same.
 */
export const SubOrgCreateRequest = z.strictObject({
  name: z
    .string('name is required')
    .trim()
    .min(1, 'name is required')
    .max(100, 'name must be at most 100 characters')
    .superRefine((value, ctx) => {
      const problem = displayTextProblem('name', value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
});
export type SubOrgCreateRequest = z.output<typeof SubOrgCreateRequest>;
