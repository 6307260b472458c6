import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { tally, type PolicyActor } from './evaluate.ts';
import { decisionsOn, freezeRequirement, recordVote, type VoteResult } from './votes.store.ts';

/**
 * The done-when's concurrency half, on a real database: approvers deciding
 * at the same instant (every decision of a run sent at once) never lose a
 * decision nor count one twice, and exactly one request claims the sending
 * of a settled outcome.
 */

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const initiator: PolicyActor = { kind: 'staff', id: 'ivy', role: 'initiator' };
const ROLES = ['viewer', 'initiator', 'approver', 'admin'] as const;

const memberArb = fc.record({
  id: fc.constantFrom('ada', 'bo', 'cy', 'dee', 'eve', 'ivy'),
  role: fc.constantFrom(...ROLES),
});
const runArb = fc.record({
  approvals: fc.integer({ min: 1, max: 4 }),
  kinds: fc.subarray(['approver', 'admin'] as const),
  // Some members decide more than once, some twice at the same instant.
  decisions: fc.array(
    fc.record({ member: memberArb, decision: fc.constantFrom('APPROVE', 'DECLINE') }),
    { minLength: 1, maxLength: 8 },
  ),
});

describe('decisions recorded under concurrency', () => {
  it('none lost, none counted twice, one claim to send the outcome', async () => {
    await fc.assert(
      fc.asyncProperty(runArb, async ({ approvals, kinds, decisions }) => {
        const entityId = `tx-${randomUUID()}`;
        const requirement: FrozenRequirement = {
          policyVersion: 1,
          ruleId: 'r',
          ruleName: 'Random rule',
          outcome: {
            action: 'ALLOW',
            approvals,
            approvers: { kinds: [...kinds], memberIds: [] },
            apiClientMayApproveOwn: false,
          },
        };
        const now = new Date('2026-11-26T12:00:00Z');
        await freezeRequirement(
          handle.db,
          { entityId, entityType: 'TRANSACTION', requirement, initiator },
          now,
        );
        // Each member keeps one role for the run; all decisions leave at once.
        const roles = new Map(decisions.map((d) => [d.member.id, d.member.role]));
        const results: VoteResult[] = await Promise.all(
          decisions.map(({ member, decision }) =>
            recordVote(
              handle.db,
              entityId,
              {
                actor: { kind: 'staff', id: member.id, role: roles.get(member.id) ?? 'viewer' },
                decision,
                subOrgId: null,
              },
              now,
            ),
          ),
        );

        const stored = await decisionsOn(handle.db, entityId);
        const deciders = new Set(decisions.map((d) => d.member.id));
        const settledAt = results.findIndex((r) => r.claimedAt);
        // Every member's first decision is kept once, unless the item was settled before it.
        expect(new Set(stored.map((d) => d.actor.id)).size).toBe(stored.length);
        if (settledAt === -1) expect(stored.length).toBe(deciders.size);
        // What is stored tallies to what the last answer said, and at most one claim was made.
        const final = tally(requirement, initiator, stored);
        expect(results.filter((r) => r.claimedAt)).toHaveLength(final.state === 'PENDING' ? 0 : 1);
        const counts = results.map((r) => r.tally.approvedBy.length);
        expect(Math.max(...counts)).toBe(final.approvedBy.length);
        expect(final.approvedBy.length).toBeLessThanOrEqual(approvals);
        if (final.state === 'APPROVED') expect(final.approvedBy).toHaveLength(approvals);
        // Nothing is recorded once the item is settled: the last decision kept settled it.
        if (final.state !== 'PENDING')
          expect(tally(requirement, initiator, stored.slice(0, -1)).state).toBe('PENDING');
      }),
      { numRuns: 25 },
    );
  });
});
