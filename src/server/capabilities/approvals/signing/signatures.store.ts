import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { ApprovalCardIntent, CardVoidedVote } from '#contract/approval-card.ts';
import type { PasskeyAssertion, PasskeyKind } from '#contract/auth.ts';
import { SIGNING_SCHEME } from '#contract/approval-signature.ts';
import type { Database } from '../../../db/client.ts';
import type { approvalEvents } from '../../../db/schema/console.ts';
import {
  approvalSignatures,
  approvalSigningNonces,
  approvalVotes,
} from '../../../db/schema/console.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import { intentChange } from '#contract/card-changes.ts';

/**
 * The signed approvals' storage: one-time nonces, each bound to a member, an
 * item, a decision and the card shown; and every staff decision with what it
 * was made on (contract/approval-signature.ts).
 */

export type StoredSignatureRow = typeof approvalSignatures.$inferSelect;
type NonceRow = typeof approvalSigningNonces.$inferSelect;
type Action = 'approve' | 'reject';

/** How long a signing challenge may wait for its passkey: long enough to find the key. */
export const NONCE_LIFETIME_MS = 5 * 60_000;

export async function createNonce(
  db: Database,
  bound: { staffId: string; entityId: string; action: Action; digest: string; card: string },
  now: Date,
): Promise<NonceRow> {
  const [row] = await db
    .insert(approvalSigningNonces)
    .values({
      nonce: randomBytes(32).toString('base64url'),
      ...bound,
      createdAt: now,
      expiresAt: new Date(now.getTime() + NONCE_LIFETIME_MS),
      usedAt: null,
    })
    .returning();
  if (!row) throw new Error('the signing nonce was not stored');
  return row;
}

/**
 * Uses the nonce, once: only while unused and unexpired, and only for the
 * member, item, decision and digest it was issued for. One conditional
 * update, so two requests carrying it cannot both have it. Undefined: none.
 */
export async function consumeNonce(
  db: Database,
  bound: { nonce: string; staffId: string; entityId: string; action: Action; digest: string },
  now: Date,
): Promise<NonceRow | undefined> {
  const [row] = await db
    .update(approvalSigningNonces)
    .set({ usedAt: now })
    .where(
      and(
        eq(approvalSigningNonces.nonce, bound.nonce),
        eq(approvalSigningNonces.staffId, bound.staffId),
        eq(approvalSigningNonces.entityId, bound.entityId),
        eq(approvalSigningNonces.action, bound.action),
        eq(approvalSigningNonces.digest, bound.digest),
        isNull(approvalSigningNonces.usedAt),
        gt(approvalSigningNonces.expiresAt, now),
      ),
    )
    .returning();
  return row;
}

export interface SignatureRecord {
  entityId: string;
  staffId: string;
  staffName: string;
  decision: 'APPROVED' | 'REJECTED';
  decidedAt: Date;
  digest: string;
  card: string;
  signed: {
    nonce: string;
    credentialId: string;
    credentialName: string;
    credentialKind: PasskeyKind;
    publicKey: string;
    assertion: PasskeyAssertion;
    rpId: string;
    origin: string;
  } | null;
}

export async function recordSignature(db: Database, record: SignatureRecord): Promise<void> {
  const { signed, ...decision } = record;
  await db.insert(approvalSignatures).values({
    id: randomUUID(),
    ...decision,
    scheme: SIGNING_SCHEME,
    nonce: signed?.nonce ?? null,
    credentialId: signed?.credentialId ?? null,
    credentialName: signed?.credentialName ?? null,
    credentialKind: signed?.credentialKind ?? null,
    publicKey: signed?.publicKey ?? null,
    assertion: signed?.assertion ?? null,
    rpId: signed?.rpId ?? null,
    origin: signed?.origin ?? null,
    voidedBecause: null,
    voidedAt: null,
  });
}

/** Every stored decision on the items, oldest first. */
export async function signaturesOf(
  db: Pick<Database, 'select'>,
  entityIds: readonly string[],
): Promise<StoredSignatureRow[]> {
  if (entityIds.length === 0) return [];
  return db
    .select()
    .from(approvalSignatures)
    .where(inArray(approvalSignatures.entityId, [...entityIds]))
    .orderBy(asc(approvalSignatures.decidedAt), asc(approvalSignatures.id));
}

/** The decisions on an item that stopped counting, and why: the card's quorum says so. */
export async function voidedVotes(
  db: Pick<Database, 'select'>,
  entityId: string,
): Promise<CardVoidedVote[]> {
  const rows = await signaturesOf(db, [entityId]);
  return rows
    .filter((r) => r.voidedBecause !== null)
    .map((r) => ({
      name: r.staffName,
      at: r.decidedAt.toISOString(),
      because: r.voidedBecause ?? '',
    }));
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Whether any member's approval still counted on the item stands on a card
 * that no longer holds against `now` (the rule `voidChangedVotes` applies): a
 * read, so that reading an item costs no lock unless a vote is to be voided.
 */
export async function hasChangedVotes(
  db: Pick<Database, 'select'>,
  entityId: string,
  now: ApprovalCardIntent,
): Promise<boolean> {
  const rows = await db
    .select({ staffId: approvalSignatures.staffId, card: approvalSignatures.card })
    .from(approvalSignatures)
    .where(
      and(
        eq(approvalSignatures.entityId, entityId),
        eq(approvalSignatures.decision, 'APPROVED'),
        isNull(approvalSignatures.voidedAt),
      ),
    )
    .orderBy(asc(approvalSignatures.decidedAt));
  const latest = new Map(rows.map((r) => [r.staffId, r.card]));
  return [...latest.values()].some(
    (card) => intentChange(JSON.parse(card) as ApprovalCardIntent, now) !== null,
  );
}

/**
 * Before an item's votes are counted: each member's approval recorded under
 * its rule whose stored card no longer holds against the card now (the
 * destination, amount, asset, chain, call or quote changed, or the fee rose
 * above the ceiling signed) stops counting. Its vote is taken back, so the
 * item waits for a fresh one, and the stored decision says why. Run under the
 * item's lock (votes.store.ts `recordVote`). Answers what was voided.
 */
export async function voidChangedVotes(
  tx: Tx,
  item: {
    entityId: string;
    entityType: (typeof approvalEvents.$inferInsert)['entityType'];
    subOrgId: string | null;
  },
  now: ApprovalCardIntent,
  at: Date,
): Promise<CardVoidedVote[]> {
  const rows = await tx
    .select()
    .from(approvalSignatures)
    .where(
      and(
        eq(approvalSignatures.entityId, item.entityId),
        eq(approvalSignatures.decision, 'APPROVED'),
        isNull(approvalSignatures.voidedAt),
      ),
    )
    .orderBy(asc(approvalSignatures.decidedAt));
  // A member's latest stored approval is the one their vote stands on.
  const latest = new Map(rows.map((r) => [r.staffId, r]));
  const voided: CardVoidedVote[] = [];
  for (const row of latest.values()) {
    const because = intentChange(JSON.parse(row.card) as ApprovalCardIntent, now);
    if (!because) continue;
    const gone = await tx
      .delete(approvalVotes)
      .where(
        and(
          eq(approvalVotes.entityId, item.entityId),
          eq(approvalVotes.actorType, 'STAFF'),
          eq(approvalVotes.actorId, row.staffId),
          eq(approvalVotes.decision, 'APPROVE'),
        ),
      )
      .returning({ entityId: approvalVotes.entityId });
    if (gone.length === 0) continue;
    await tx
      .update(approvalSignatures)
      .set({ voidedBecause: because, voidedAt: at })
      .where(eq(approvalSignatures.id, row.id));
    await raiseApprovalEvent(
      tx,
      {
        kind: 'VOTE',
        entityType: item.entityType,
        entityId: item.entityId,
        subOrgId: item.subOrgId,
        status: 'WITHDRAWN',
      },
      at,
    );
    voided.push({ name: row.staffName, at: row.decidedAt.toISOString(), because });
  }
  return voided;
}
