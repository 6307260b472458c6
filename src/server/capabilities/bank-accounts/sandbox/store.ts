import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { BankAccount } from '#contract/bank-account.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Database } from '../../../db/client.ts';
import { bankAccounts } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { BankAccountListQuery } from '../port.ts';
import type { Page } from '#contract/common.ts';
import { after, decodeCursor, keysetPage, newestFirst } from '../../../custody/sandbox/keyset.ts';
import { toWireBankAccount } from '../../../custody/sandbox/mappers.ts';

/** Reads of endpoints 1 and 2 over the sandbox's tables. */

export async function listBankAccounts(
  db: Database,
  orgId: string | null,
  query: BankAccountListQuery,
): Promise<Page<BankAccount>> {
  const position = query.cursor ? decodeCursor('bank_accounts', query.cursor) : undefined;
  if (!orgId) return { results: [], hasNext: false, nextCursor: null };

  const conditions: Array<SQL | undefined> = [
    eq(bankAccounts.orgId, orgId),
    query.status ? eq(bankAccounts.status, query.status) : undefined,
    query.paymentMethod ? eq(bankAccounts.paymentMethod, query.paymentMethod) : undefined,
    query.country ? eq(bankAccounts.country, query.country) : undefined,
    query.subOrgId ? eq(bankAccounts.subOrgId, query.subOrgId) : undefined,
    // A staff member's scope (several sub-orgs); see console/scope-rules.ts.
    query.subOrgIds ? inArray(bankAccounts.subOrgId, query.subOrgIds) : undefined,
    position ? after(bankAccounts, position) : undefined,
  ];

  return keysetPage(
    'bank_accounts',
    query.limit,
    (take) =>
      db
        .select()
        .from(bankAccounts)
        .where(and(...conditions))
        .orderBy(...newestFirst(bankAccounts))
        .limit(take),
    toWireBankAccount,
  );
}

export async function getBankAccount(
  db: Database,
  orgId: string | null,
  bankAccountId: string,
): Promise<BankAccount> {
  const [row] = orgId
    ? await db
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.orgId, orgId), eq(bankAccounts.id, bankAccountId)))
        .limit(1)
    : [];
  if (!row)
    throw new ApiError(404, ERROR_CODES.notFound, `No bank account with id "${bankAccountId}"`);
  return toWireBankAccount(row);
}
