import { z } from 'zod';
import { displayTextProblem } from './display-text.ts';

/** POST /vaults/ (the SDKs' createVault): a name, and the chains it gets a wallet on (all when absent). */
export const VaultCreateRequest = z.strictObject({
  vaultName: z
    .string('vaultName is required')
    .trim()
    .min(1, 'vaultName is required')
    .max(100, 'vaultName must be at most 100 characters')
    .superRefine((value, ctx) => {
      const problem = displayTextProblem('vaultName', value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  chains: z
    .array(
      z.string().regex(/^[A-Z0-9_]{1,40}$/, 'chains holds chain values like "ETHEREUM"'),
      'chains must be a list of chains',
    )
    .max(50, 'chains holds at most 50 chains')
    .transform((list) => [...new Set(list)])
    .optional(),
  /** The provider's vault templates: the sandbox has none, and takes any id as given. */
  templateId: z.string().max(200, 'templateId must be at most 200 characters').optional(),
  testNetVault: z.boolean('testNetVault must be true or false').optional(),
  /**
   * The Python SDK's `vaultSigners`: API users of the organization who sign
   * for the vault. A transaction from it waits, once approved, for one of
   * them to act on its operation (operations.ts).
   */
  vaultSigners: z
    .array(
      z.string().trim().min(1, 'vaultSigners holds API user ids'),
      'vaultSigners must be a list of API user ids',
    )
    .max(20, 'vaultSigners holds at most 20 signers')
    .transform((list) => [...new Set(list)])
    .optional(),
  /** Console extra: the sub-organization that owns it. */
  subOrgId: z.string().trim().min(1).optional(),
});
export type VaultCreateRequest = z.output<typeof VaultCreateRequest>;
