import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { ContactCreateRequest } from '#contract/contact.ts';
import type { Contact } from '#contract/reference.ts';
import type { Database } from '../../../db/client.ts';
import { assets, contacts } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import { raiseChangeRequestEvent } from '../../../custody/sandbox/change-request-events.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';
import { toWireContact } from '../../../custody/sandbox/mappers.ts';
import {
  checkOwnSubOrg,
  creatorOf,
  proposedWithRequest,
} from '../../../custody/sandbox/change-request.ts';

/**
 * A contact is created PENDING together with the change request that will
 * approve or decline it, in one database transaction (as a bank account is),
 * so there is never a contact nobody can approve.
 */

function invalid(field: string, message: string, code: string = ERROR_CODES.validation): ApiError {
  return new ApiError(400, code, message, [{ field, message }]);
}

/** Every listed asset must exist on the contact's chain: a typo would make the contact unusable. */
export async function checkAssetList(
  db: Executor,
  blockChain: string,
  assetList: readonly string[],
): Promise<void> {
  if (assetList.length === 0) return;
  const rows = await db
    .select({ symbol: assets.symbol })
    .from(assets)
    .where(and(eq(assets.blockChain, blockChain), inArray(assets.symbol, [...assetList])));
  const known = new Set(rows.map((r) => r.symbol));
  const unknown = assetList.filter((symbol) => !known.has(symbol));
  if (unknown.length > 0) {
    throw invalid(
      'assetList',
      `assetList names ${unknown.map((s) => `"${s}"`).join(', ')}, not an asset on ${blockChain}`,
    );
  }
}

/** PostgreSQL's unique_violation on the per-organization externalId index. */
function isExternalIdConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, constraint, message } = current as Record<string, unknown>;
    if (
      code === '23505' &&
      (constraint === 'contacts_org_external_id_uq' ||
        (typeof message === 'string' && message.includes('contacts_org_external_id_uq')))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function duplicateExternalId(externalId: string, existingId?: string): ApiError {
  const which = existingId ? ` by contact ${existingId}` : '';
  return invalid(
    'externalId',
    `externalId "${externalId}" is already used${which} in this organization; nothing was created`,
    ERROR_CODES.duplicateExternalId,
  );
}

export async function createContact(
  db: Database,
  orgId: string | null,
  actor: CustodyActor | undefined,
  input: ContactCreateRequest,
  now: Date,
): Promise<Contact> {
  if (!orgId) throw noOrganization();
  const chain = chainInfo(input.blockChain);
  if (!chain) {
    throw invalid(
      'blockChain',
      `blockChain "${input.blockChain}" is not a chain the sandbox supports`,
    );
  }
  const assetList = input.assetList ?? [];
  const creator = creatorOf(actor);
  try {
    const row = await db.transaction(async (tx) => {
      await checkOwnSubOrg(tx, orgId, input.subOrgId);
      await checkAssetList(tx, chain.value, assetList);
      if (input.externalId) {
        const [taken] = await tx
          .select({ id: contacts.id })
          .from(contacts)
          .where(and(eq(contacts.orgId, orgId), eq(contacts.externalId, input.externalId)))
          .limit(1);
        if (taken) throw duplicateExternalId(input.externalId, taken.id);
      }
      // One entry per counterparty and owner: a second proposal of the same address (pending or
      // approved) would split its history and its approvals. EVM hex compares in any case.
      const sameAddress =
        chain.kind === 'EVM'
          ? sql`lower(${contacts.address}) = ${input.address.toLowerCase()}`
          : eq(contacts.address, input.address);
      const [twin] = await tx
        .select({ id: contacts.id, name: contacts.name, status: contacts.status })
        .from(contacts)
        .where(
          and(
            eq(contacts.orgId, orgId),
            eq(contacts.blockChain, chain.value),
            sameAddress,
            ne(contacts.status, 'DECLINED'),
            input.subOrgId ? eq(contacts.subOrgId, input.subOrgId) : isNull(contacts.subOrgId),
          ),
        )
        .limit(1);
      if (twin) {
        throw invalid(
          'address',
          `address is already contact "${twin.name}" (${twin.id}, ${twin.status}) on ${chain.label} for this owner; nothing was created`,
          ERROR_CODES.duplicateContact,
        );
      }

      const inserted = await tx
        .insert(contacts)
        .values({
          id: randomUUID(),
          orgId,
          subOrgId: input.subOrgId ?? null,
          name: input.name,
          blockChain: chain.value,
          address: input.address,
          status: 'PENDING',
          assetList,
          tags: input.tags ?? [],
          externalId: input.externalId ?? null,
          isSmartContractAddress: input.isSmartContractAddress ?? false,
          // The sandbox screens nobody: no contact is sanctioned here.
          isSanctioned: false,
          createdById: creator.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const proposed = await proposedWithRequest(tx, inserted, {
        orgId,
        entityType: 'CONTACT',
        creator,
        now,
      });
      await raiseChangeRequestEvent(tx, {
        orgId,
        kind: 'PROPOSED',
        entityType: 'CONTACT',
        entityId: proposed.id,
        subOrgId: proposed.subOrgId,
        status: 'PENDING',
        at: now,
      });
      return proposed;
    });
    return toWireContact(row);
  } catch (error) {
    // Two creates with one externalId at once: the index lets one through.
    if (input.externalId && isExternalIdConflict(error))
      throw duplicateExternalId(input.externalId);
    throw error;
  }
}
