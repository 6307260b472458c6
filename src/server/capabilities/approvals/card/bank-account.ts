import { frozenOf, last4, MOVES_NO_MONEY, orNull, ruleOf } from './parts.ts';
import type { ApprovableKind } from '../core/kind.ts';

/**
 * A proposed bank account's card: who it pays (the account's name and bank),
 * its rail and the last 4 digits of its number, never the full number. Nothing
 * leaves with its approval, so it has no amount, fee or balances.
 */
export const bankAccountKind: ApprovableKind = {
  kind: 'BANK_ACCOUNT',
  async stateOf(card, entityId) {
    const account = await card.backend.getBankAccount(card.ctx, entityId);
    return { pending: account.status === 'PENDING', subOrgId: account.subOrgId ?? null };
  },
  async loadCard(card, entityId) {
    const account = await orNull(card.backend.getBankAccount(card.ctx, entityId));
    if (!account) return null;
    const frozen = await frozenOf(card, entityId, account.subOrgId, false);
    return {
      intent: {
        kind: 'BANK_ACCOUNT',
        category: 'BANK_ACCOUNT',
        source: null,
        destination: {
          type: 'BANK_ACCOUNT',
          id: entityId,
          name: account.accountName ?? null,
          address: account.bankName ?? null,
          blockChain: null,
          rail: account.paymentMethod ?? null,
          last4: last4(account.accountNumber),
          ours: false,
          approvedContact: false,
          approvedContactSince: null,
        },
        ...MOVES_NO_MONEY,
        rule: await ruleOf(card, frozen.requirement),
      },
      status: {
        entityId,
        state: account.status ?? null,
        createdAt: account.createdAt ?? null,
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
