import { and, eq, isNull, like, lte, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { upstreamApprovals, upstreamCreators } from '../../db/schema/console.ts';

/**
 * What the console remembers about entities it sent upstream, in its own
 * database (the `console` schema): who created each one, and which entity an
 * approval id belongs to. Upstream knows only the one API user. Every create
 * is recorded before it is sent (an intent: no entity id yet) and resolved
 * when its answer, or a look-up, names the entity; an intent left unresolved
 * still names its member as a possible creator.
 */

/** Before a transaction is sent: its externalId names its creator even if the answer is lost. */
export async function recordTransactionIntent(
  db: Database,
  externalId: string,
  staffId: string,
  at: Date,
): Promise<void> {
  await db
    .insert(upstreamCreators)
    .values({ entityType: 'TRANSACTION', externalId, staffId, createdAt: at })
    .onConflictDoNothing();
}

/** Upstream refused the create outright: nothing was made, the intent goes. */
export async function forgetTransactionIntent(
  db: Database,
  externalId: string,
  staffId: string,
): Promise<void> {
  await db
    .delete(upstreamCreators)
    .where(
      and(
        eq(upstreamCreators.entityType, 'TRANSACTION'),
        eq(upstreamCreators.externalId, externalId),
        eq(upstreamCreators.staffId, staffId),
        isNull(upstreamCreators.entityId),
      ),
    );
}

/**
 * Before a bank account is sent: its creator under the proposal's fingerprint
 * (bank-account-fingerprint.ts), with an attempt id of its own, since a
 * member may propose the same account again. Returns the attempt's key.
 */
export async function recordBankAccountIntent(
  db: Database,
  fingerprint: string,
  attemptId: string,
  staffId: string,
  at: Date,
): Promise<string> {
  const key = `${fingerprint}.${attemptId}`;
  await db
    .insert(upstreamCreators)
    .values({ entityType: 'BANK_ACCOUNT', externalId: key, staffId, createdAt: at });
  return key;
}

/** The attempt created `entityId`: its intent becomes the account's creator record. */
export async function resolveBankAccountIntent(
  db: Database,
  key: string,
  entityId: string,
): Promise<void> {
  const intent = and(
    eq(upstreamCreators.entityType, 'BANK_ACCOUNT'),
    eq(upstreamCreators.externalId, key),
    isNull(upstreamCreators.entityId),
  );
  const [known] = await db
    .select({ id: upstreamCreators.id })
    .from(upstreamCreators)
    .where(eq(upstreamCreators.entityId, entityId))
    .limit(1);
  // Already recorded (a reconciled create seen twice): the first record stands.
  if (known) await db.delete(upstreamCreators).where(intent);
  else await db.update(upstreamCreators).set({ entityId }).where(intent);
}

/** Upstream refused the bank account outright: nothing was made, the attempt's intent goes. */
export async function forgetBankAccountIntent(db: Database, key: string): Promise<void> {
  await db
    .delete(upstreamCreators)
    .where(
      and(
        eq(upstreamCreators.entityType, 'BANK_ACCOUNT'),
        eq(upstreamCreators.externalId, key),
        isNull(upstreamCreators.entityId),
      ),
    );
}

/**
 * Members whose bank-account proposal with this fingerprint has no known
 * outcome (its answer was lost, or has not arrived yet) and was recorded no
 * later than `notAfter`: any of them may have created the account.
 */
export async function unresolvedBankAccountIntents(
  db: Database,
  fingerprint: string,
  notAfter: Date | null,
): Promise<string[]> {
  const rows = await db
    .select({ staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(
      and(
        eq(upstreamCreators.entityType, 'BANK_ACCOUNT'),
        isNull(upstreamCreators.entityId),
        // The fingerprint is hex: no LIKE wildcard in it.
        like(upstreamCreators.externalId, `${fingerprint}.%`),
        notAfter ? lte(upstreamCreators.createdAt, notAfter) : undefined,
      ),
    );
  return [...new Set(rows.map((r) => r.staffId))];
}

/** Once upstream answered (or reconciliation found it): the entity's id. */
export async function recordCreated(
  db: Database,
  entry: {
    entityType: 'TRANSACTION' | 'BANK_ACCOUNT';
    entityId: string;
    staffId: string;
    externalId?: string | null | undefined;
    at: Date;
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
          eq(upstreamCreators.staffId, entry.staffId),
          isNull(upstreamCreators.entityId),
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
      createdAt: entry.at,
    })
    .onConflictDoNothing();
}

/**
 * Every member who may have created an entity through this console: by its
 * id, or (transactions) by its externalId, since a member whose create answer
 * was lost is recorded by that alone. Four-eyes refuses all of them.
 */
export async function creatorsOf(
  db: Database,
  entityId: string,
  externalId?: string | null,
): Promise<string[]> {
  const rows = await db
    .select({ staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(
      externalId
        ? or(
            eq(upstreamCreators.entityId, entityId),
            and(
              eq(upstreamCreators.entityType, 'TRANSACTION'),
              eq(upstreamCreators.externalId, externalId),
            ),
          )
        : eq(upstreamCreators.entityId, entityId),
    );
  return rows.map((r) => r.staffId);
}

export async function recordApproval(
  db: Database,
  approvalId: string,
  entityId: string,
  at: Date,
): Promise<void> {
  await db
    .insert(upstreamApprovals)
    .values({ approvalId, entityId, seenAt: at })
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
