import { changeRequestEvents } from '../../db/schema/sandbox.ts';
import type { Executor } from './engine/transitions.ts';

/**
 * Records that a bank account's or a contact's change request was opened or
 * decided (`sandbox.change_request_events`), inside the caller's database
 * transaction: the event commits with the change or not at all, as a status
 * change's row in `transaction_status_events` does. The console's event
 * stream tails it (capabilities/live/sandbox/change-request-source.ts).
 */
export async function raiseChangeRequestEvent(
  tx: Pick<Executor, 'insert'>,
  event: {
    orgId: string;
    kind: 'PROPOSED' | 'DECIDED';
    entityType: string;
    entityId: string;
    subOrgId: string | null;
    status: 'PENDING' | 'APPROVED' | 'REJECTED';
    at: Date;
  },
): Promise<void> {
  // Transactions and vaults are told elsewhere (the status log) or not at all.
  if (event.entityType !== 'BANK_ACCOUNT' && event.entityType !== 'CONTACT') return;
  await tx.insert(changeRequestEvents).values({ ...event, entityType: event.entityType });
}
