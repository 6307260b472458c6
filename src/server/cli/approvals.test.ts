import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { canonicalJson, intentDigest, type ApprovalCardIntent } from '#contract/approval-card.ts';
import { signingChallenge } from '#contract/approval-signature.ts';
import { assertionOptions, registrationOptions, verifyRegistration } from '../auth/passkeys.ts';
import { addPasskey } from '../auth/passkeys.store.ts';
import { createStaff } from '../auth/staff.store.ts';
import { recordSignature } from '../capabilities/approvals/signing/signatures.store.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { approvalSignatures } from '../db/schema/console.ts';
import { cliTest, type CliHarness } from '../test/cli-test.ts';
import { SoftAuthenticator } from '../test/soft-authenticator.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';

/**
 * `npm run cli -- approvals verify --id <item>` over a stored history of
 * signed decisions (real ES256 assertions of a software authenticator over
 * the challenge the console derives), and over the same history with a vote
 * row edited in the database.
 */

const RP = { id: 'localhost', origin: TEST_ORIGIN, name: 'Custody Console' };

const intent: ApprovalCardIntent = {
  kind: 'TRANSACTION',
  category: 'TRANSFER',
  source: { id: 'vault-1', name: 'Treasury' },
  destination: null,
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  amount: '1.5',
  assets: null,
  feeCeiling: { tier: 'MEDIUM', maxFee: '0.0021', asset: 'ETH', blockChain: 'ETHEREUM' },
  call: null,
  quote: null,
  rule: null,
};

async function withDatabase<T>(cli: CliHarness, use: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({
    dataDir: cli.storage.dataDir,
    databaseUrl: cli.storage.databaseUrl,
  });
  try {
    await database.migrate(['console']);
    return await use(database.db);
  } finally {
    await database.close();
  }
}

/** A member with a passkey who approves `entityId` with it, stored as the console stores it. */
async function signedApproval(db: Database, entityId: string, name: string, at: Date) {
  const member = await createStaff(
    db,
    {
      email: `${randomBytes(4).toString('hex')}@cli.test`,
      name,
      role: 'approver',
      subOrgIds: null,
      password: '',
    },
    { now: at, passwordHash: 'unused' },
  );
  const key = new SoftAuthenticator();
  const registration = await registrationOptions(RP, member, []);
  const verdict = await verifyRegistration(
    RP,
    key.create(registration, TEST_ORIGIN).credential,
    registration.challenge,
  );
  if (!verdict.ok) throw new Error(verdict.reason);
  const passkey = await addPasskey(db, member.id, `${name}'s key`, verdict.value, at);
  if (!passkey) throw new Error('no passkey');
  const digest = intentDigest(intent);
  const nonce = randomBytes(32).toString('base64url');
  const options = await assertionOptions(
    RP,
    [passkey],
    new Uint8Array(signingChallenge({ action: 'approve', entityId, digest, nonce })),
  );
  await recordSignature(db, {
    entityId,
    staffId: member.id,
    staffName: name,
    decision: 'APPROVED',
    decidedAt: at,
    digest,
    card: canonicalJson(intent),
    signed: {
      nonce,
      credentialId: passkey.credentialId,
      credentialName: passkey.name,
      credentialKind: 'passkey',
      publicKey: passkey.publicKey,
      assertion: key.get(options, TEST_ORIGIN),
      rpId: RP.id,
      origin: RP.origin,
    },
  });
}

describe('npm run cli -- approvals verify', () => {
  cliTest(
    'verifies a stored history of signed votes, and exits 1 on one whose row was edited',
    { timeout: 180_000 },
    async ({ cli }) => {
      const entityId = 'tx-cli-verify-1';
      await withDatabase(cli, async (db) => {
        await signedApproval(db, entityId, 'Ada', new Date('2030-01-01T14:02:00Z'));
        await signedApproval(db, entityId, 'Ben', new Date('2030-01-01T14:05:00Z'));
      });
      const digest = intentDigest(intent);

      const ok = await cli.run(['approvals', 'verify', '--id', entityId]);
      expect(ok.code, ok.stderr).toBe(0);
      const [summary, ...lines] = ok.stdout.split('\n');
      expect(summary).toBe(
        `2 of 2 signatures valid over intent ${digest.slice(0, 8)}…${digest.slice(-4)}: Ada (passkey) 14:02, Ben (passkey) 14:05`,
      );
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/APPROVED {2}Ada \(passkey “Ada's key”\).* valid; counts$/);

      // Someone with the database's keys turns Ben's approval into 10 ETH.
      await withDatabase(cli, async (db) => {
        const tampered = canonicalJson({ ...intent, amount: '10' });
        await db
          .update(approvalSignatures)
          .set({ card: tampered, digest: intentDigest({ ...intent, amount: '10' }) })
          .where(eq(approvalSignatures.staffName, 'Ben'));
      });
      const caught = await cli.run(['approvals', 'verify', '--id', entityId]);
      expect(caught.code).toBe(1);
      expect(caught.stdout).toMatch(/^1 of 2 signatures valid over 2 intents/);
      expect(caught.stdout).toMatch(/Ben \(passkey “Ben's key”\).* INVALID: /);
      expect(caught.stderr).toMatch(/1 stored signature does not verify/);

      const none = await cli.run(['approvals', 'verify', '--id', 'nothing-here']);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/No staff decision is stored for "nothing-here"/);
    },
  );

  cliTest('is listed in the help', async ({ cli }) => {
    const help = await cli.run(['approvals', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/approvals verify/);
    const usage = await cli.run(['approvals', 'verify']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--id ID is required/);
  });
});
