import { vi } from 'vitest';
import {
  intentDigest,
  onlyFeeMoved,
  type ApprovalCard,
  type ApprovalCardIntent,
  type ApprovalCardResponse,
} from '#contract/approval-card.ts';
import type { ApprovalSignatures } from '#contract/approval-signature.ts';
import { json, type FakeRoute } from './fake-api.ts';

/**
 * The signed-approval routes a component test answers for one item (its
 * approval card, the signing challenge, its signatures), and a stand-in for
 * the browser's authenticator (`navigator.credentials.get`).
 */

/** A transfer's card for `entityId`; `intent` overrides parts of its intent. */
export function transferCard(
  entityId: string,
  intent: Partial<ApprovalCardIntent> = {},
): ApprovalCard {
  return {
    intent: {
      kind: 'TRANSACTION',
      category: 'TRANSFER',
      source: { id: 'v_hot', name: 'Hot wallet' },
      destination: {
        type: 'CONTACT',
        id: 'c_1',
        name: 'Exchange',
        address: '0xabc0000000000000000000000000000000000001',
        blockChain: 'ETHEREUM',
        rail: null,
        last4: null,
        ours: false,
        approvedContact: true,
        approvedContactSince: null,
      },
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '0.5',
      assets: null,
      feeCeiling: { tier: 'MEDIUM', maxFee: '0.0021', asset: 'ETH', blockChain: 'ETHEREUM' },
      call: null,
      quote: null,
      rule: null,
      ...intent,
    },
    status: {
      entityId,
      state: 'PENDING',
      createdAt: '2026-11-23T10:00:00.000Z',
      computedAt: '2026-11-23T10:01:00.000Z',
      amountUsd: null,
      priceUsd: null,
      feeCeilingUsd: null,
      // No balances: a card's own list would add list items inside the page's lists.
      balances: [],
      quorum: null,
    },
  };
}

export const answerOf = (card: ApprovalCard): ApprovalCardResponse => ({
  card,
  digest: intentDigest(card.intent),
});

export interface SigningState {
  /** The card the server holds now: change it to make the next challenge answer CARD_CHANGED. */
  card: ApprovalCard;
  /** Whether the member must sign. */
  required: boolean;
  /** The challenges asked for, in order. */
  challenges: Array<{ action: string; digest: string }>;
  signatures: ApprovalSignatures | null;
}

export function signingRoutes(entityId: string, state: SigningState): Record<string, FakeRoute> {
  // As the server does (card/cards-shown.ts): a card it answered lately is still the card
  // decided on while only its fee moved within the ceiling it showed.
  const answered = new Map<string, ApprovalCardIntent>();
  return {
    [`/api/console/approval_cards/${entityId}/`]: () => {
      const answer = answerOf(state.card);
      answered.set(answer.digest, answer.card.intent);
      return json(answer);
    },
    [`/api/console/approval_cards/${entityId}/challenge/`]: (_url, init) => {
      const body = JSON.parse(String(init.body)) as { action: string; digest: string };
      state.challenges.push(body);
      const seen = answered.get(body.digest);
      const digest =
        seen && onlyFeeMoved(seen, state.card.intent)
          ? body.digest
          : intentDigest(state.card.intent);
      if (body.digest !== digest)
        return json(
          { message: 'The approval card changed since it was shown', code: 'CARD_CHANGED' },
          409,
        );
      return json(
        state.required
          ? {
              required: true,
              digest,
              nonce: `nonce-${entityId}-0123456789`,
              expiresAt: '2026-11-23T10:06:00.000Z',
              options: {
                challenge: 'Y2hhbGxlbmdlLWJ5dGVz',
                rpId: 'localhost',
                allowCredentials: [{ id: 'Y3JlZC0x', type: 'public-key' }],
                userVerification: 'required',
              },
            }
          : { required: false, digest, nonce: null, expiresAt: null, options: null },
      );
    },
    [`/api/console/approval_signatures/${entityId}/`]: () =>
      state.signatures
        ? json(state.signatures)
        : json({ message: 'Not found', code: 'NOT_FOUND' }, 404),
  };
}

export function signingState(entityId: string, over: Partial<SigningState> = {}): SigningState {
  return {
    card: transferCard(entityId),
    required: false,
    challenges: [],
    signatures: null,
    ...over,
  };
}

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

/**
 * The browser's authenticator: `answer` is what `navigator.credentials.get`
 * does — 'sign' gives an assertion, 'cancel' rejects as a closed prompt does
 * (NotAllowedError). Returns the mock, to count prompts.
 */
export function installAuthenticator(answer: () => 'sign' | 'cancel') {
  const get = vi.fn(async () => {
    if (answer() === 'cancel')
      throw new DOMException(
        'The operation either timed out or was not allowed.',
        'NotAllowedError',
      );
    return {
      id: 'Y3JlZC0x',
      rawId: bytes('cred-1'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: {
        authenticatorData: bytes('authenticator-data'),
        clientDataJSON: bytes('{"type":"webauthn.get"}'),
        signature: bytes('signature'),
        userHandle: null,
      },
      getClientExtensionResults: () => ({}),
    };
  });
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(navigator, 'credentials', { value: { get }, configurable: true });
  return get;
}
