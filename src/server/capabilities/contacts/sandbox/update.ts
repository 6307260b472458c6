import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { ContactUpdateRequest } from '#contract/contact.ts';
import type { Contact } from '#contract/reference.ts';
import type { Database } from '../../../db/client.ts';
import { changeRequests, contacts } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { toWireContact } from '../../../custody/sandbox/mappers.ts';
import { creatorOf, openChangeRequest } from '../../../custody/sandbox/change-request.ts';
import { raiseChangeRequestEvent } from '../../../custody/sandbox/change-request-events.ts';
import { checkAssetList } from './create.ts';

/**
 * PUT /contacts/{id}/: an approved contact's new asset list goes through
 * approval like the contact did. The proposal is held on its change request
 * (and signed as part of its approval message); the contact keeps receiving
 * only its approved list until the request is approved. One change waits at
 * a time: a contact whose creation or earlier change awaits a decision
 * refuses another (400 CHANGE_PENDING), and a declined contact is final
 * (400 CONTACT_DECLINED): propose a new one.
 */

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

export async function updateContact(
  db: Database,
  orgId: string | null,
  actor: CustodyActor | undefined,
  contactId: string,
  input: ContactUpdateRequest,
  now: Date,
): Promise<Contact> {
  if (!orgId) throw noOrganization();
  const creator = creatorOf(actor);
  return db.transaction(async (tx) => {
    // Locked: two changes sent at once cannot both find no request waiting.
    const [contact] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.orgId, orgId), eq(contacts.id, contactId)))
      .limit(1)
      .for('update');
    if (!contact)
      throw new ApiError(404, ERROR_CODES.notFound, `No contact with id "${contactId}"`);
    if (contact.status === 'DECLINED') {
      throw new ApiError(
        400,
        ERROR_CODES.contactDeclined,
        `contact "${contact.name}" was declined, and a declined contact is not changed: propose a new contact instead`,
      );
    }
    const [waiting] = await tx
      .select({ id: changeRequests.id })
      .from(changeRequests)
      .where(
        and(
          eq(changeRequests.orgId, orgId),
          eq(changeRequests.entityId, contact.id),
          eq(changeRequests.status, 'PENDING'),
        ),
      )
      .limit(1);
    if (waiting || contact.status === 'PENDING') {
      const what = contact.status === 'PENDING' ? 'its proposal' : 'a change to its asset list';
      throw new ApiError(
        400,
        ERROR_CODES.changePending,
        `contact "${contact.name}" has ${what} awaiting a decision: have it approved or declined before proposing another change`,
      );
    }
    if (sameList(input.assetList, contact.assetList)) {
      const message = 'assetList is already this contact’s approved asset list: nothing to change';
      throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'assetList', message }]);
    }
    await checkAssetList(tx, contact.blockChain, input.assetList);

    const proposedChange = { assetList: input.assetList };

    await openChangeRequest(tx, {
      orgId,
      entityType: 'CONTACT',
      entityId: contact.id,
      creator,
      now,
      proposedChange,
    });
    await raiseChangeRequestEvent(tx, {
      orgId,
      kind: 'PROPOSED',
      entityType: 'CONTACT',
      entityId: contact.id,
      subOrgId: contact.subOrgId,
      status: 'PENDING',
      at: now,
    });
    return { ...toWireContact(contact), pendingAssetList: input.assetList };
  });
}
