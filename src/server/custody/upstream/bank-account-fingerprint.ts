import { createHash, createHmac, type KeyObject } from 'node:crypto';

/**
 * A bank account has no externalId on the wire, so the console names a
 * proposal it is about to send by a fingerprint of what makes it that
 * account: rail, account number, routing number and holder. The creator is
 * recorded under it before sending (creators.store.ts), and an account
 * upstream whose creator is otherwise unknown is matched to it at decision
 * time (capabilities/approvals/upstream/).
 *
 * Keyed (HMAC-SHA-256): an account number is a few digits short of
 * guessable, and the console's database holds no account number otherwise.
 * The key is derived from the API user's private key, which never leaves the
 * server and is all it would take to read the numbers upstream anyway; a new
 * key leaves intents recorded under the old one unmatched.
 */

export interface BankAccountIdentity {
  paymentMethod?: string | null | undefined;
  accountNumber?: string | null | undefined;
  routingNumber?: string | null | undefined;
  accountName?: string | null | undefined;
}

const compact = (value: string | null | undefined) =>
  (value ?? '').replace(/\s+/g, '').toUpperCase();

const holder = (value: string | null | undefined) =>
  (value ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

export type BankAccountFingerprint = (account: BankAccountIdentity) => string;

export function bankAccountFingerprinter(privateKey: KeyObject): BankAccountFingerprint {
  const key = createHash('sha256')
    .update('custody-console bank-account fingerprint v1\0')
    .update(privateKey.export({ format: 'der', type: 'pkcs8' }))
    .digest();
  return (account) =>
    createHmac('sha256', key)
      .update(
        JSON.stringify([
          account.paymentMethod ?? '',
          compact(account.accountNumber),
          compact(account.routingNumber),
          holder(account.accountName),
        ]),
      )
      .digest('hex');
}
