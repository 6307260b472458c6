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
import { Transaction } from '#contract/transaction.ts';
import { registrationOptions, verifyRegistration } from '../../auth/passkeys.ts';
import { addPasskey } from '../../auth/passkeys.store.ts';
import { SoftAuthenticator, type Tamper } from '../../test/soft-authenticator.ts';
import { TEST_ORIGIN, type StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

/**
 * A signed staff decision on a console in upstream mode, console → console
 * over real HTTP: console A checks the member's passkey assertion over the
 * approval card it computed from what the custody API (console B, a sandbox)
 * answers, and only then sends B the single approval, once. A refused
 * assertion sends B nothing. The passkey is a real ES256 key of a software
 * authenticator, registered on A as the account page registers one.
 */

const RP = { id: 'localhost', origin: TEST_ORIGIN, name: 'Custody Console' };

interface Signer {
  session: StaffSession;
  key: SoftAuthenticator;
}

/** One of A's approvers, with a passkey registered on A. */
async function signerOnA(t: TwoConsoles): Promise<Signer> {
  const session = await t.signIn('approver');
  const key = new SoftAuthenticator();
  const options = await registrationOptions(RP, session.member, []);
  const { credential } = key.create(options, TEST_ORIGIN);
  const verdict = await verifyRegistration(RP, credential, options.challenge);
  if (!verdict.ok) throw new Error(verdict.reason);
  await addPasskey(t.aDatabase.db, session.member.id, 'Upstream key', verdict.value, t.clock.now());
  return { session, key };
}

const upstreamTest = twoConsolesTest().extend('signer', { scope: 'file' }, ({ t }) => signerOnA(t));

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function transfer(t: TwoConsoles, by: StaffSession, amount: string): Promise<string> {
  const made = await by.json(
    paths.transactions(),
    post({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: t.fixture.treasury.id },
      destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
      amount,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      gasParams: { feeTier: 'MEDIUM' },
    }),
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return Transaction.parse(made.body).id ?? '';
}

/** What the browser does: read A's card, ask A for the challenge over it, sign it with the passkey. */
async function signIntent(signer: Signer, entityId: string, tamper: Tamper = {}) {
  const card = await signer.session.json(pathOf(approvalCard, { entityId }));
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  const { digest } = ApprovalCardResponse.parse(card.body);
  const res = await signer.session.json(
    pathOf(approvalSigningChallenge, { entityId }),
    post({ action: 'approve', digest }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const challenge = SigningChallenge.parse(res.body);
  expect(challenge.required).toBe(true);
  if (!challenge.options || !challenge.nonce) throw new Error('no challenge to sign');
  return {
    digest,
    nonce: challenge.nonce,
    credential: signer.key.get(challenge.options, TEST_ORIGIN, tamper),
  };
}

async function approve(
  by: StaffSession,
  entityId: string,
  intent: { digest: string; nonce: string; credential: PasskeyAssertion },
) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return by.json(paths.approvalAction(approvalId), post({ action: 'approve', intent }));
}

/** Every decision A sends B while `work` runs, as B receives it (the URL and the body). */
async function sentToB(
  t: TwoConsoles,
  work: () => Promise<void>,
): Promise<Array<{ url: string; body: Record<string, unknown> }>> {
  const sent: Array<{ url: string; body: Record<string, unknown> }> = [];
  t.intercept = (send, input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (
      (init?.method ?? 'GET') === 'POST' &&
      /\/change_requests\/approvals\/[^/]+\/action\//.test(url)
    )
      sent.push({ url, body: JSON.parse(String(init?.body)) as Record<string, unknown> });
    return send(input, init);
  };
  try {
    await work();
  } finally {
    t.intercept = null;
  }
  return sent;
}

describe('a signed decision through an upstream custody API', () => {
  upstreamTest(
    'A checks the assertion over its card, then sends B the single approval once, without the intent',
    async ({ t, signer }) => {
      const initiator = await t.signIn('initiator');
      const id = await transfer(t, initiator, '0.0301');
      const intent = await signIntent(signer, id);

      const sent = await sentToB(t, async () => {
        const res = await approve(signer.session, id, intent);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ status: 'APPROVED' });
      });
      expect(sent).toHaveLength(1);
      // The custody API gets its own approval (A's API user's), never the member's assertion.
      expect(sent[0]?.body).toMatchObject({ action: 'approve' });
      expect(sent[0]?.body).not.toHaveProperty('intent');
      expect(await t.b.status(id)).toBe('APPROVED');

      // A keeps the vote with its card and assertion: checked again, valid over the card signed.
      const stored = await signer.session.json(pathOf(approvalSignatures, { entityId: id }));
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      const { signatures } = ApprovalSignatures.parse(stored.body);
      expect(signatures.map((s) => [s.decision, s.digest, s.valid, s.counts])).toEqual([
        ['APPROVED', intent.digest, true, true],
      ]);
    },
  );

  upstreamTest(
    'a tampered assertion is refused by A, and B receives nothing',
    async ({ t, signer }) => {
      const initiator = await t.signIn('initiator');
      const id = await transfer(t, initiator, '0.0302');
      // Signed over a challenge A never issued for this card.
      const intent = await signIntent(signer, id, { challenge: 'bm90LXRoaXMtY2FyZA' });

      const sent = await sentToB(t, async () => {
        const res = await approve(signer.session, id, intent);
        expect(res.status, JSON.stringify(res.body)).toBe(401);
        expect(res.body).toMatchObject({ code: 'SIGNED_INTENT_INVALID' });
      });
      expect(sent).toEqual([]);
      expect(await t.b.status(id)).toBe('PENDING');
    },
  );
});
