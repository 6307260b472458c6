import { frozenOf, orNull, ruleOf } from './parts.ts';
import type { ApprovableKind } from '../core/kind.ts';

/**
 * A contact's card: the address it names on its chain and the assets it may
 * receive once approved (a proposed change to them included: that is what
 * waits for the decision).
 */
export const contactKind: ApprovableKind = {
  kind: 'CONTACT',
  // It waits while its proposal does, and while a change to its assets does.
  async stateOf(card, entityId) {
    const contact = await card.backend.getContact(card.ctx, entityId);
    return {
      pending: contact.status === 'PENDING' || Boolean(contact.pendingAssetList),
      subOrgId: contact.subOrgId ?? null,
    };
  },
  async loadCard(card, entityId) {
    const contact = await orNull(card.backend.getContact(card.ctx, entityId));
    if (!contact) return null;
    const frozen = await frozenOf(card, entityId, contact.subOrgId, false);
    return {
      intent: {
        kind: 'CONTACT',
        category: 'CONTACT',
        source: null,
        destination: {
          type: 'CONTACT',
          id: entityId,
          name: contact.name ?? null,
          address: contact.address ?? null,
          blockChain: contact.blockChain ?? null,
          rail: null,
          last4: null,
          ours: false,
          approvedContact: contact.status === 'APPROVED',
          approvedContactSince: null,
        },
        asset: null,
        blockChain: contact.blockChain ?? null,
        amount: null,
        assets: contact.pendingAssetList ?? contact.assetList ?? [],
        feeCeiling: null,
        call: null,
        quote: null,
        rule: await ruleOf(card, frozen.requirement),
      },
      status: {
        entityId,
        state: contact.pendingAssetList ? 'PENDING' : (contact.status ?? null),
        createdAt: contact.createdAt ?? null,
        computedAt: card.clock.now().toISOString(),
        amountUsd: null,
        priceUsd: null,
        feeCeilingUsd: null,
        balances: [],
        quorum: frozen.quorum,
      },
    };
  },
};
