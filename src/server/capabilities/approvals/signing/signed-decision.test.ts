import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalCardResponse } from '#contract/approval-card.ts';
import { ApprovalSignatures, SigningChallenge } from '#contract/approval-signature.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import type { PasskeyAssertion } from '#contract/auth.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import {
  approvalSignatures,
  approvalSigningChallenge,
} from '#contract/endpoints/approval-signatures.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import { registrationOptions, verifyRegistration } from '../../../auth/passkeys.ts';
import { addPasskey } from '../../../auth/passkeys.store.ts';
import { nextCongestedAt } from '../../../custody/sandbox/fee-model.ts';
import { approvalSignatures as signatureRows, auditLog } from '../../../db/schema/console.ts';
import { decideAs } from '../../../test/change-requests.ts';
import { createSubOrg } from '../../../test/fixtures.ts';
import type { EngineFixture, EngineTestApp } from '../../../test/engine-test-app.ts';
import { publishPolicy } from '../../../test/policies.ts';
import { rampTest } from '../../../test/ramp-fixtures.ts';
import { SoftAuthenticator, type Tamper } from '../../../test/soft-authenticator.ts';
import { proposeBankAccount } from '../../../test/staff-approvals.ts';
import { signInStaff, TEST_ORIGIN, type StaffSession } from '../../../test/staff-session.ts';

/**
 * Staff decisions signed with a passkey over the approval card, through the
 * real app: the challenge, the decision checked against it (tampered,
 * replayed, another member's key, an older card, none at all), and the votes
 * that stop counting when the card changes before the item moves on. The
 * passkeys are real ES256 keys of a software authenticator.
 */

interface Signer {
  session: StaffSession;
  key: SoftAuthenticator;
}

const RP = { id: 'localhost', origin: TEST_ORIGIN, name: 'Custody Console' };

/** A member with one passkey registered (the registration checked as the account page checks it). */
async function withPasskey(t: EngineTestApp, name: string): Promise<Signer> {
  const session = await signInStaff(t.app, t.db, t.authClock, { role: 'approver', name });
  const key = new SoftAuthenticator();
  const { member } = session;
  const options = await registrationOptions(RP, member, []);
  const { credential } = key.create(options, TEST_ORIGIN);
  const verdict = await verifyRegistration(RP, credential, options.challenge);
  if (!verdict.ok) throw new Error(verdict.reason);
  await addPasskey(t.db, member.id, `${name}'s key`, verdict.value, t.authClock.now());
  return { session, key };
}

const signTest = rampTest
  .extend('ivy', { scope: 'file' }, ({ t }) =>
    signInStaff(t.app, t.db, t.authClock, { role: 'initiator', name: 'Ivy Signs' }),
  )
  .extend('ada', { scope: 'file' }, ({ t }) => withPasskey(t, 'Ada Signs'))
  .extend('ben', { scope: 'file' }, ({ t }) => withPasskey(t, 'Ben Signs'))
  .extend('policy', { scope: 'file' }, async ({ t }) => {
    const editor = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    const reviewer = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    await publishPolicy(t.db, 'transactions', bigNeedsTwo, {
      editor,
      reviewer,
      now: t.authClock.now(),
    });
    return bigNeedsTwo;
  });

/** 5 ETH ($15,000) or more takes two approvals; less, the default one. */
const bigNeedsTwo: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function transfer(by: StaffSession, f: EngineFixture, amount: string): Promise<string> {
  const res = await by.json(
    paths.transactions(),
    send({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      gasParams: { feeTier: 'MEDIUM' },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Transaction.parse(res.body).id ?? '';
}

async function cardOf(by: StaffSession, entityId: string) {
  const res = await by.json(pathOf(approvalCard, { entityId }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalCardResponse.parse(res.body);
}

async function challengeOf(
  by: StaffSession,
  entityId: string,
  action: 'approve' | 'reject',
  digest: string,
) {
  return by.json(pathOf(approvalSigningChallenge, { entityId }), send({ action, digest }));
}

async function approvalIdOf(by: StaffSession, entityId: string): Promise<string> {
  const res = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalMessageResponse.parse(res.body).approvalId;
}

/** What the browser does: read the card, ask for the challenge over it, sign it with the passkey. */
async function signIntent(
  signer: Signer,
  entityId: string,
  action: 'approve' | 'reject' = 'approve',
  tamper: Tamper = {},
  key: SoftAuthenticator = signer.key,
) {
  const { digest } = await cardOf(signer.session, entityId);
  const res = await challengeOf(signer.session, entityId, action, digest);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const challenge = SigningChallenge.parse(res.body);
  expect(challenge.required).toBe(true);
  const options = challenge.options;
  if (!options || !challenge.nonce) throw new Error('no challenge to sign');
  const credential =
    key === signer.key
      ? key.get(options, TEST_ORIGIN, tamper)
      : key.get(
          { ...options, allowCredentials: undefined },
          TEST_ORIGIN,
          tamper,
          key.credentials[0],
        );
  return { digest, nonce: challenge.nonce, credential };
}

function decide(
  by: StaffSession,
  approvalId: string,
  action: 'approve' | 'reject',
  intent?: { digest: string; nonce?: string; credential?: PasskeyAssertion },
) {
  return by.json(
    paths.approvalAction(approvalId),
    send({
      action,
      ...(action === 'reject' ? { reason: 'not this one' } : {}),
      ...(intent ? { intent } : {}),
    }),
  );
}

async function signaturesOf(by: StaffSession, entityId: string) {
  const res = await by.json(pathOf(approvalSignatures, { entityId }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalSignatures.parse(res.body);
}

/** Flips one byte of a base64url field. */
function flipped(field: string): string {
  const bytes = Buffer.from(field, 'base64url');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
  return bytes.toString('base64url');
}

describe('a signed approval', () => {
  signTest(
    'is verified, moves the item, and is stored with its card: checked again it is valid',
    async ({ t, f, ivy, ada }) => {
      const id = await transfer(ivy, f, '0.0101');
      const intent = await signIntent(ada, id);
      const res = await decide(ada.session, await approvalIdOf(ada.session, id), 'approve', intent);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');

      const stored = await signaturesOf(ada.session, id);
      expect(stored.signatures).toEqual([
        expect.objectContaining({
          decidedBy: 'Ada Signs',
          decision: 'APPROVED',
          digest: intent.digest,
          credentialName: "Ada Signs's key",
          credentialKind: 'passkey',
          valid: true,
          problem: null,
          counts: true,
        }),
      ]);
      // The audit log (and its export) carries the digest and the credential it was signed with.
      const [row] = await t.db
        .select({ summary: auditLog.summary })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'change_request.approve')));
      expect(row?.summary).toContain(`intent ${intent.digest}, passkey ${intent.credential.id}`);
      expect(stored.summary).toMatch(
        new RegExp(
          `^1 of 1 signature valid over intent ${intent.digest.slice(0, 8)}…${intent.digest.slice(-4)}: Ada Signs \\(passkey\\) \\d\\d:\\d\\d$`,
        ),
      );
    },
  );

  signTest('a bank account is signed through the same code', async ({ t, ivy, ada }) => {
    const desk = await createSubOrg(t.db, t.orgId, 'Signing desk');
    const id = await proposeBankAccount(ivy, desk.id, {
      accountName: 'Signed Payee LLC',
      accountNumber: '777000222',
    });
    const intent = await signIntent(ada, id);
    const res = await decide(ada.session, await approvalIdOf(ada.session, id), 'approve', intent);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await signaturesOf(ada.session, id);
    expect(stored.signatures[0]).toMatchObject({ valid: true, decision: 'APPROVED' });
  });
});

describe('a decision refused before anything is decided', () => {
  signTest('a tampered assertion: 401 SIGNED_INTENT_INVALID', async ({ t, f, ivy, ada }) => {
    const id = await transfer(ivy, f, '0.0102');
    const intent = await signIntent(ada, id);
    const credential = {
      ...intent.credential,
      response: {
        ...intent.credential.response,
        signature: flipped(intent.credential.response.signature),
      },
    };
    const res = await decide(ada.session, await approvalIdOf(ada.session, id), 'approve', {
      ...intent,
      credential,
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'SIGNED_INTENT_INVALID' });
    expect(await t.status(id)).toBe('PENDING');
  });

  signTest(
    'a replayed assertion: its nonce was used, 401 SIGNED_INTENT_INVALID',
    async ({ t, f, ivy, ada }) => {
      const id = await transfer(ivy, f, '0.0103');
      const intent = await signIntent(ada, id, 'reject');
      const approvalId = await approvalIdOf(ada.session, id);
      // The rejection's signature sent again, this time as an approval: bound to "reject".
      const asApproval = await decide(ada.session, approvalId, 'approve', intent);
      expect(asApproval.status).toBe(401);
      expect(asApproval.body).toMatchObject({ code: 'SIGNED_INTENT_INVALID' });
      // A fresh one, used once, then replayed.
      const fresh = await signIntent(ada, id, 'reject');
      const first = await decide(ada.session, approvalId, 'reject', fresh);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const replay = await decide(ada.session, approvalId, 'reject', fresh);
      expect(replay.status).toBe(401);
      expect(replay.body).toMatchObject({ code: 'SIGNED_INTENT_INVALID' });
      expect(await t.status(id)).toBe('DECLINED');
    },
  );

  signTest(
    'another member’s credential: 401 SIGNED_INTENT_INVALID',
    async ({ t, f, ivy, ada, ben }) => {
      const id = await transfer(ivy, f, '0.0104');
      // Ben's challenge, signed with Ada's key.
      const intent = await signIntent(ben, id, 'approve', {}, ada.key);
      const res = await decide(ben.session, await approvalIdOf(ben.session, id), 'approve', intent);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'SIGNED_INTENT_INVALID' });
      expect(JSON.stringify(res.body)).toContain('not one of this member');
      expect(await t.status(id)).toBe('PENDING');
    },
  );

  signTest(
    'a decision without an assertion from a member with a passkey: 403 SIGNED_INTENT_REQUIRED',
    async ({ t, f, ivy, ada }) => {
      const id = await transfer(ivy, f, '0.0105');
      const approvalId = await approvalIdOf(ada.session, id);
      const bare = await decide(ada.session, approvalId, 'approve');
      expect(bare.status).toBe(403);
      expect(bare.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
      const { digest } = await cardOf(ada.session, id);
      const digestOnly = await decide(ada.session, approvalId, 'approve', { digest });
      expect(digestOnly.status).toBe(403);
      expect(digestOnly.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
      expect(await t.status(id)).toBe('PENDING');
    },
  );

  signTest(
    'an assertion over an older card: 409 CARD_CHANGED naming the card now, at the challenge and the decision',
    async ({ t, f, ivy, ada }) => {
      const id = await transfer(ivy, f, '0.0106');
      const intent = await signIntent(ada, id);
      // The chain congests while the member holds the card: the fee ceiling rises.
      t.clock.set(nextCongestedAt('ETHEREUM', t.clock.now()) ?? t.clock.now());
      const now = await cardOf(ada.session, id);
      expect(now.digest).not.toBe(intent.digest);

      const stale = await challengeOf(ada.session, id, 'approve', intent.digest);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ code: 'CARD_CHANGED' });
      expect(JSON.stringify(stale.body)).toContain(now.digest);

      const res = await decide(ada.session, await approvalIdOf(ada.session, id), 'approve', intent);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'CARD_CHANGED' });
      expect(JSON.stringify(res.body)).toContain('fee ceiling rose');
      expect(await t.status(id)).toBe('PENDING');
      t.clock.advance(20 * 60_000);
    },
  );

  signTest(
    'a card shown half a minute ago whose fee moved within its ceiling is still the card decided on',
    async ({ t, f, ivy, ada }) => {
      // Calm: the estimate moves a few percent a window, within the ceiling shown.
      const calm = nextCongestedAt('ETHEREUM', t.clock.now()) ?? t.clock.now();
      t.clock.set(new Date(calm.getTime() + 20 * 60_000));
      const id = await transfer(ivy, f, '0.0108');
      const shown = await cardOf(ada.session, id);
      let now = shown;
      for (let i = 0; i < 10 && now.digest === shown.digest; i++) {
        t.clock.advance(30_000);
        now = await cardOf(ada.session, id);
      }
      expect(now.digest, 'the estimate moved in ten windows').not.toBe(shown.digest);

      const res = await challengeOf(ada.session, id, 'approve', shown.digest);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const challenge = SigningChallenge.parse(res.body);
      expect(challenge.digest).toBe(shown.digest);
      if (!challenge.options || !challenge.nonce) throw new Error('no challenge to sign');
      const credential = ada.key.get(challenge.options, TEST_ORIGIN);
      const decided = await decide(ada.session, await approvalIdOf(ada.session, id), 'approve', {
        digest: shown.digest,
        nonce: challenge.nonce,
        credential,
      });
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
      const stored = await signaturesOf(ada.session, id);
      expect(stored.signatures[0]).toMatchObject({ digest: shown.digest, valid: true });

      // A member who decides unsigned is held to the card shown the same way.
      const other = await transfer(ivy, f, '0.0109');
      const unsigned = await signInStaff(t.app, t.db, t.authClock, {
        role: 'approver',
        name: 'Dan Unsigned',
      });
      const seen = await cardOf(unsigned, other);
      let later = seen;
      for (let i = 0; i < 10 && later.digest === seen.digest; i++) {
        t.clock.advance(30_000);
        later = await cardOf(unsigned, other);
      }
      const ok = await decide(unsigned, await approvalIdOf(unsigned, other), 'approve', {
        digest: seen.digest,
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      t.clock.advance(20 * 60_000);
    },
  );

  signTest(
    'an API client’s decision is as before: its signed message, no intent',
    async ({ t, f, ivy, client }) => {
      const id = await transfer(ivy, f, '0.0107');
      const res = await decideAs(t.app, client, id, { action: 'approve' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );
});

describe('votes on a card that changed before the item moved on', () => {
  signTest(
    'a fee risen above the signed ceiling voids the earlier vote: nothing is sent, the card says why',
    async ({ t, f, ivy, ada, ben, policy }) => {
      void policy;
      // Out of congestion, so the chain's next congestion raises the fee.
      const calm = nextCongestedAt('ETHEREUM', t.clock.now()) ?? t.clock.now();
      t.clock.set(new Date(calm.getTime() + 20 * 60_000));
      const id = await transfer(ivy, f, '5');
      const first = await decide(
        ada.session,
        await approvalIdOf(ada.session, id),
        'approve',
        await signIntent(ada, id),
      );
      expect(first.body).toMatchObject({ status: 'PENDING', policy: { approvals: 1 } });

      t.clock.set(nextCongestedAt('ETHEREUM', t.clock.now()) ?? t.clock.now());
      const second = await decide(
        ben.session,
        await approvalIdOf(ben.session, id),
        'approve',
        await signIntent(ben, id),
      );
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({
        status: 'PENDING',
        policy: { approvals: 1, required: 2 },
      });
      expect(await t.status(id)).toBe('PENDING');

      const { card } = await cardOf(ben.session, id);
      expect(card.status.quorum?.approvedBy.map((a) => a.name)).toEqual(['Ben Signs']);
      expect(card.status.quorum?.voided).toEqual([
        expect.objectContaining({
          name: 'Ada Signs',
          because: expect.stringMatching(/^the fee ceiling rose from .* ETH to .* ETH$/),
        }),
      ]);
      const stored = await signaturesOf(ben.session, id);
      expect(stored.signatures.map((s) => [s.decidedBy, s.valid, s.counts])).toEqual([
        ['Ada Signs', true, false],
        ['Ben Signs', true, true],
      ]);

      // Ada approves the card as it is now: two votes on it, and it moves.
      const again = await decide(
        ada.session,
        await approvalIdOf(ada.session, id),
        'approve',
        await signIntent(ada, id),
      );
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
      t.clock.advance(20 * 60_000);
    },
  );
});

describe('the stored record checked again', () => {
  signTest('a vote row edited in the database no longer verifies', async ({ t, f, ivy, ada }) => {
    const id = await transfer(ivy, f, '0.0108');
    const intent = await signIntent(ada, id, 'reject');
    const res = await decide(ada.session, await approvalIdOf(ada.session, id), 'reject', intent);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.db
      .update(signatureRows)
      .set({ decision: 'APPROVED' })
      .where(eq(signatureRows.entityId, id));
    const stored = await signaturesOf(ada.session, id);
    expect(stored.signatures[0]).toMatchObject({ valid: false });
    expect(stored.summary).toMatch(/^0 of 1 signature valid/);
  });
});
