import * as z from 'zod/mini';
import { CREATABLE_CATEGORIES } from '#contract/transaction-record.ts';

/** `/transactions/new?category=`: which of the four create forms is open (a transfer unless said). */
export const NewTransactionSearch = z.object({
  category: z.catch(z.optional(z.enum(CREATABLE_CATEGORIES)), undefined),
});
export type NewTransactionSearch = z.output<typeof NewTransactionSearch>;
export type CreatableCategory = (typeof CREATABLE_CATEGORIES)[number];
