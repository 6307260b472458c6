import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { upstreamApprovals, upstreamCreators } from '../../db/schema/console.ts';

/**
 * What the console remembers about entities it sent upstream, in its own
 * database (the `console` schema): who created each one, and which entity an
 * approval id belongs to. Upstream knows only the one API user.
 */

/** Before a transaction is sent: its externalId names its creator even if the answer is lost. */
export async function recordTransactionIntent(
  db: Database,
  externalId: string,
  staffId: string,
): Promise<void> {
  await db
    .insert(upstreamCreators)
    .values({ entityType: 'TRANSACTION', externalId, staffId })
    .onConflictDoNothing();
}

/** Once upstream answered (or reconciliation found it): the entity's id. */
export async function recordCreated(
  db: Database,
  entry: {
    entityType: 'TRANSACTION' | 'BANK_ACCOUNT';
    entityId: string;
    staffId: string;
    externalId?: string | null | undefined;
  },
): Promise<void> {
  if (entry.entityType === 'TRANSACTION' && entry.externalId) {
    const updated = await db
      .update(upstreamCreators)
      .set({ entityId: entry.entityId })
      .where(
        and(
          eq(upstreamCreators.entityType, 'TRANSACTION'),
          eq(upstreamCreators.externalId, entry.externalId),
        ),
      )
      .returning({ id: upstreamCreators.id });
    if (updated.length > 0) return;
  }
  // A reconciled create may be recorded twice; the first record stands.
  await db
    .insert(upstreamCreators)
    .values({
      entityType: entry.entityType,
      entityId: entry.entityId,
      externalId: entry.entityType === 'TRANSACTION' ? (entry.externalId ?? null) : null,
      staffId: entry.staffId,
    })
    .onConflictDoNothing();
}

/** The staff member who created an entity through this console, by its id or (transactions) its externalId. */
export async function creatorOf(
  db: Database,
  entityId: string,
  externalId?: string | null,
): Promise<string | undefined> {
  const [byId] = await db
    .select({ staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(eq(upstreamCreators.entityId, entityId))
    .limit(1);
  if (byId || !externalId) return byId?.staffId;
  const [byExternalId] = await db
    .select({ staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(
      and(
        eq(upstreamCreators.entityType, 'TRANSACTION'),
        eq(upstreamCreators.externalId, externalId),
      ),
    )
    .limit(1);
  return byExternalId?.staffId;
}

export async function recordApproval(
  db: Database,
  approvalId: string,
  entityId: string,
): Promise<void> {
  await db
    .insert(upstreamApprovals)
    .values({ approvalId, entityId })
    .onConflictDoUpdate({ target: upstreamApprovals.approvalId, set: { entityId } });
}

export async function approvalEntity(db: Database, approvalId: string): Promise<string | null> {
  const [row] = await db
    .select({ entityId: upstreamApprovals.entityId })
    .from(upstreamApprovals)
    .where(eq(upstreamApprovals.approvalId, approvalId))
    .limit(1);
  return row?.entityId ?? null;
}
