import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { Passkey, PasskeyKind } from '#contract/auth.ts';
import type { Database } from '../db/client.ts';
import { staffPasskeys } from '../db/schema/console.ts';

/**
 * Each member's passkeys and security keys: the credential id, the public key
 * every later assertion is verified with, the signature counter, how the
 * browser reaches it, and the name and times the account page shows. The
 * WebAuthn ceremonies that fill and read it are in passkeys.ts.
 */

export type StoredPasskey = typeof staffPasskeys.$inferSelect;

export interface NewPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  multiDevice: boolean;
}

/**
 * What the member would call it: a key of its own reached by USB, NFC or
 * Bluetooth is a security key; one in a device (or synced between devices,
 * or reached by a phone) is a passkey.
 */
export function passkeyKind(
  passkey: Pick<StoredPasskey, 'transports' | 'multiDevice'>,
): PasskeyKind {
  const { transports, multiDevice } = passkey;
  if (multiDevice || transports.includes('internal') || transports.includes('hybrid'))
    return 'passkey';
  return transports.some((t) => t === 'usb' || t === 'nfc' || t === 'ble')
    ? 'security key'
    : 'passkey';
}

export function toWirePasskey(passkey: StoredPasskey): Passkey {
  return {
    id: passkey.id,
    name: passkey.name,
    kind: passkeyKind(passkey),
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

/** The member's passkeys, oldest first. */
export async function listPasskeys(db: Database, staffId: string): Promise<StoredPasskey[]> {
  return db
    .select()
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .orderBy(asc(staffPasskeys.createdAt), asc(staffPasskeys.id));
}

export async function hasPasskey(db: Database, staffId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId));
  return (row?.n ?? 0) > 0;
}

/** The member's passkey with this credential id; another member's is none. */
export async function findPasskey(
  db: Database,
  staffId: string,
  credentialId: string,
): Promise<StoredPasskey | undefined> {
  const [row] = await db
    .select()
    .from(staffPasskeys)
    .where(and(eq(staffPasskeys.staffId, staffId), eq(staffPasskeys.credentialId, credentialId)))
    .limit(1);
  return row;
}

/** Adds a verified credential; undefined when that credential is registered already (to anyone). */
export async function addPasskey(
  db: Database,
  staffId: string,
  name: string,
  credential: NewPasskey,
  now: Date,
): Promise<StoredPasskey | undefined> {
  const [row] = await db
    .insert(staffPasskeys)
    .values({ id: randomUUID(), staffId, name, ...credential, createdAt: now, lastUsedAt: null })
    .onConflictDoNothing({ target: staffPasskeys.credentialId })
    .returning();
  return row;
}

/**
 * Records a use: the authenticator's new counter, if it grew (or both are 0,
 * an authenticator that keeps no count). One conditional update, so two
 * requests carrying the same assertion cannot both pass. False: it did not.
 */
export async function recordUse(
  db: Database,
  passkey: Pick<StoredPasskey, 'id' | 'counter'>,
  newCounter: number,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .update(staffPasskeys)
    .set({ counter: newCounter, lastUsedAt: now })
    .where(
      and(
        eq(staffPasskeys.id, passkey.id),
        newCounter === 0 ? eq(staffPasskeys.counter, 0) : lt(staffPasskeys.counter, newCounter),
      ),
    )
    .returning({ id: staffPasskeys.id });
  return row !== undefined;
}

/** Removes one of the member's passkeys; undefined when the member has none of that id. */
export async function removePasskey(
  db: Database,
  staffId: string,
  passkeyId: string,
): Promise<StoredPasskey | undefined> {
  const [row] = await db
    .delete(staffPasskeys)
    .where(and(eq(staffPasskeys.staffId, staffId), eq(staffPasskeys.id, passkeyId)))
    .returning();
  return row;
}

/** The reset of a lost factor: every passkey of the member goes. Answers how many. */
export async function clearPasskeys(db: Database, staffId: string): Promise<number> {
  const removed = await db
    .delete(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .returning({ id: staffPasskeys.id });
  return removed.length;
}
