import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { BankAccount, BankAccountCreateRequest } from '#contract/bank-account.ts';
import type { Database } from '../../../db/client.ts';
import { bankAccounts, organizations } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import {
  checkOwnSubOrg,
  creatorOf,
  proposedWithRequest,
} from '../../../custody/sandbox/change-request.ts';
import { raiseChangeRequestEvent } from '../../../custody/sandbox/change-request-events.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { toWireBankAccount } from '../../../custody/sandbox/mappers.ts';

/**
 * Endpoint 3: a bank account is created PENDING together with the change
 * request that will approve or decline it, in one database transaction, so
 * there is never an account nobody can approve.
 */

export async function createBankAccount(
  db: Database,
  orgId: string | null,
  actor: CustodyActor | undefined,
  input: BankAccountCreateRequest,
  /** From the sandbox's clock, like every other time the sandbox stamps. */
  now: Date,
): Promise<BankAccount> {
  if (!orgId) throw noOrganization();
  const creator = creatorOf(actor);
  const row = await db.transaction(async (tx) => {
    const [org] = await tx
      .select({ entityId: organizations.entityId })
      .from(organizations)
      .where(eq(organizations.id, orgId))
      .limit(1);
    if (!org) throw noOrganization();
    await checkOwnSubOrg(tx, orgId, input.subOrgId);

    const inserted = await tx
      .insert(bankAccounts)
      .values({
        id: randomUUID(),
        orgId,
        subOrgId: input.subOrgId ?? null,
        // The caller cannot choose it: an account belongs to the organization's entity.
        orgEntityId: org.entityId,
        createdById: creator.id,
        status: 'PENDING',
        paymentMethod: input.paymentMethod,
        // The rail's schema guarantees these for every rail; '' never reaches here.
        accountNumber: input.accountNumber ?? '',
        accountName: input.accountName ?? '',
        bankName: input.bankName ?? '',
        country: input.country ?? '',
        routingNumber: input.routingNumber || null,
        clientBankAccountId: input.clientBankAccountId || null,
        streetLine: input.streetLine || null,
        city: input.city || null,
        state: input.state || null,
        postalCode: input.postalCode || null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const proposed = await proposedWithRequest(tx, inserted, {
      orgId,
      entityType: 'BANK_ACCOUNT',
      creator,
      now,
    });
    await raiseChangeRequestEvent(tx, {
      orgId,
      kind: 'PROPOSED',
      entityType: 'BANK_ACCOUNT',
      entityId: proposed.id,
      subOrgId: proposed.subOrgId,
      status: 'PENDING',
      at: now,
    });
    return proposed;
  });
  return toWireBankAccount(row);
}
