import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';
import { applyDecision, type DecisionEffects, type EntityDecision } from './effects.ts';

/**
 * What a decided change request does to its entity, as a pure function of
 * the request and the entity's own effect: no database is opened. The
 * transaction outcome runs on the engine and is proven by the approval route
 * tests; each entity's effect beside its entity.
 */

/** A database that must not be read: the entities' effects here are stand-ins. */
const noDatabase = new Proxy({} as Executor, {
  get() {
    throw new Error('the database was used');
  },
});

const at = new Date('2030-01-02T03:04:05Z');

function request(entityType: string, entityId = 'entity-1') {
  return {
    id: 'cr-1',
    orgId: 'org-1',
    entityType,
    entityId,
    status: 'PENDING',
    approvalId: 'ap-1',
    approvalMessage: 'please',
    createdById: 'u-1',
    createdByType: 'API_USER',
    decidedById: null,
    decidedByType: null,
    reason: 'not ours',
    proposedChange: null,
    createdAt: at,
    updatedAt: at,
    decidedAt: null,
  } as Parameters<typeof applyDecision>[1];
}

/** Effects that record what they were asked and answer `applied`. */
function recording(applied: boolean) {
  const calls: Array<{ entity: string; entityId: string; approve: boolean; at: Date }> = [];
  const effect =
    (entity: string): EntityDecision =>
    async (_db, req, approve, when) => {
      calls.push({ entity, entityId: req.entityId, approve, at: when });
      return applied;
    };
  const effects: DecisionEffects = {
    BANK_ACCOUNT: effect('BANK_ACCOUNT'),
    CONTACT: effect('CONTACT'),
  };
  return { calls, effects };
}

describe('a decision’s effect on its entity', () => {
  it('hands a bank account’s or a contact’s decision to that entity’s own effect, approve or not, at the decision’s time', async () => {
    const { calls, effects } = recording(true);
    await applyDecision(noDatabase, request('BANK_ACCOUNT', 'ba-1'), 'APPROVED', at, effects);
    await applyDecision(noDatabase, request('CONTACT', 'c-1'), 'REJECTED', at, effects);
    expect(calls).toEqual([
      { entity: 'BANK_ACCOUNT', entityId: 'ba-1', approve: true, at },
      { entity: 'CONTACT', entityId: 'c-1', approve: false, at },
    ]);
  });

  it('changes nothing for a vault: the decided change request is its record', async () => {
    const { calls, effects } = recording(false);
    for (const decision of ['APPROVED', 'REJECTED'] as const)
      await expect(
        applyDecision(noDatabase, request('VAULT'), decision, at, effects),
      ).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('refuses with 409, naming the entity, when the entity has left PENDING some other way', async () => {
    const { effects } = recording(false);
    const refused = applyDecision(
      noDatabase,
      request('BANK_ACCOUNT', 'ba-9'),
      'APPROVED',
      at,
      effects,
    );
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'BANK_ACCOUNT ba-9 is no longer PENDING, so this change request cannot change it',
    });
  });

  it('throws on an entity type it does not know rather than deciding nothing', async () => {
    const { effects } = recording(true);
    await expect(
      applyDecision(noDatabase, request('WALLET'), 'APPROVED', at, effects),
    ).rejects.toThrow('change request cr-1 has unknown entity type WALLET');
  });
});
