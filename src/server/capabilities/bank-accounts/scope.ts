import type { CustodyBackend } from '../../custody/backend.ts';
import {
  checked,
  keepInScope,
  scopeCreateBody,
  scopeListQuery,
} from '../../console/scope-rules.ts';
import type { BankAccountsPort } from './port.ts';

/**
 * Bank accounts held to a member's sub-organizations (console/scope-rules.ts):
 * lists narrowed, gets 404 outside the scope; an account is created in one
 * of the member's sub-orgs: the one they name (404 naming `subOrgId` outside
 * them), their only one by default, or a 400 naming `subOrgId` when they have several (an organization-level
 * account would be out of their own scope, yet approvable by unrestricted
 * members).
 */
export function bankAccountsScope(inner: CustodyBackend): BankAccountsPort {
  return {
    listBankAccounts: async (ctx, q) =>
      keepInScope(ctx, await inner.listBankAccounts(ctx, scopeListQuery(ctx, q))),
    getBankAccount: async (ctx, id) =>
      checked(ctx, 'bank account', id, await inner.getBankAccount(ctx, id)),
    createBankAccount: async (ctx, input) =>
      inner.createBankAccount(ctx, scopeCreateBody(ctx, input)),
  };
}
