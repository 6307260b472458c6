import * as z from 'zod/mini';

/**
 * The two policies: transactions, and the bank accounts (and contacts)
 * payments may go to. Apart from policies.ts so that the Policies page's
 * search (read by the router on every load) does not bring the rules' schemas.
 */
export const POLICY_KINDS = ['transactions', 'accounts'] as const;
export const PolicyKind = z.enum(POLICY_KINDS);
export type PolicyKind = z.infer<typeof PolicyKind>;
