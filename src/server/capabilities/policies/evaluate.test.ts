import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY,
  DESTINATION_KINDS,
  Policy,
  type AllowOutcome,
  type PolicyRule,
} from '#contract/policies.ts';
import {
  isEligible,
  mayResendSettled,
  requirementFor,
  ruleFor,
  tally,
  type ItemFacts,
  type PolicyActor,
  type RecordedDecision,
} from './evaluate.ts';

const ada: PolicyActor = { kind: 'staff', id: 'ada', role: 'approver' };
const bo: PolicyActor = { kind: 'staff', id: 'bo', role: 'approver' };
const cy: PolicyActor = { kind: 'staff', id: 'cy', role: 'admin' };
const ivy: PolicyActor = { kind: 'staff', id: 'ivy', role: 'initiator' };
const bot: PolicyActor = { kind: 'api_client', id: 'bot' };

const transfer = (over: Partial<ItemFacts> = {}): ItemFacts => ({
  subOrgId: 'treasury',
  category: 'TRANSFER',
  asset: 'ETH',
  chain: 'ETHEREUM',
  amountUsd: '50000',
  destinationKind: 'EXTERNAL_ADDRESS',
  initiator: ivy,
  outflow24hUsd: '0',
  ...over,
});

const twoApprovers: PolicyRule = {
  id: 'big',
  name: 'Big transfers',
  match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
  outcome: {
    action: 'ALLOW',
    approvals: 2,
    approvers: { kinds: ['approver', 'admin'], memberIds: [] },
    apiClientMayApproveOwn: false,
  },
};
const noBank: PolicyRule = {
  id: 'no-bank',
  name: 'No bank payouts from Ops',
  match: { subOrgIds: ['ops'], destinationKinds: ['BANK_ACCOUNT'] },
  outcome: { action: 'BLOCK' },
};
const policy: Policy = { rules: [noBank, twoApprovers], fallback: DEFAULT_POLICY.fallback };

const approve = (actor: PolicyActor): RecordedDecision => ({ actor, decision: 'APPROVE' });
const decline = (actor: PolicyActor): RecordedDecision => ({ actor, decision: 'DECLINE' });

describe('which rule applies', () => {
  it('takes the first rule that matches, else the fallback', () => {
    expect(ruleFor(policy, transfer())?.id).toBe('big');
    expect(ruleFor(policy, transfer({ amountUsd: '500' }))).toBeNull();
    expect(
      ruleFor(policy, transfer({ subOrgId: 'ops', destinationKind: 'BANK_ACCOUNT' }))?.id,
    ).toBe('no-bank');
  });

  it('holds a threshold to the exact decimal: $10,000 is at least $10,000, $9,999.99 is not', () => {
    expect(ruleFor(policy, transfer({ amountUsd: '10000' }))?.id).toBe('big');
    expect(ruleFor(policy, transfer({ amountUsd: '9999.999999' }))).toBeNull();
  });

  it('fails closed: an item with no USD value falls under a threshold rule', () => {
    expect(ruleFor(policy, transfer({ amountUsd: null }))?.id).toBe('big');
  });

  it('a bank account (no category) is not caught by a transfer rule', () => {
    const account: ItemFacts = { subOrgId: 'treasury', amountUsd: null, initiator: ivy };
    expect(ruleFor(policy, account)).toBeNull();
  });

  it('a rule with no category catches every category: a large off-ramp needs its approvals', () => {
    const anyCategory: Policy = {
      rules: [{ ...twoApprovers, match: { amountUsdAtLeast: '10000' } }],
      fallback: DEFAULT_POLICY.fallback,
    };
    const offRamp = transfer({ category: 'OFF_RAMP', destinationKind: 'BANK_ACCOUNT' });
    expect(ruleFor(anyCategory, offRamp)?.id).toBe('big');
    // A Transfer rule does not: the one a new rule started with until now.
    expect(ruleFor(policy, offRamp)).toBeNull();
  });

  it('a rule on Transfer catches a token transfer the custody API made, as a person means it', () => {
    expect(ruleFor(policy, transfer({ category: 'TOKEN_TRANSFER', asset: 'USDC' }))?.id).toBe(
      'big',
    );
  });

  it('a rule on Contract call catches token approvals and revocations the custody API made', () => {
    const calls: Policy = {
      rules: [{ ...noBank, match: { categories: ['CONTRACT_CALL'] } }],
      fallback: DEFAULT_POLICY.fallback,
    };
    for (const category of ['CONTRACT_CALL', 'TOKEN_APPROVAL', 'REVOKE_TOKEN_ALLOWANCE'])
      expect(ruleFor(calls, transfer({ category }))?.id, category).toBe('no-bank');
    expect(ruleFor(calls, transfer())).toBeNull();
  });

  it('a stored rule naming an older, narrower category still means what it meant', () => {
    const narrow: Policy = {
      rules: [{ ...noBank, match: { categories: ['TOKEN_TRANSFER'] } }],
      fallback: DEFAULT_POLICY.fallback,
    };
    expect(ruleFor(narrow, transfer({ category: 'TOKEN_TRANSFER' }))?.id).toBe('no-bank');
    expect(ruleFor(narrow, transfer({ category: 'TRANSFER' }))).toBeNull();
  });

  it('counts the item itself into the 24 h outflow', () => {
    const capped: Policy = {
      rules: [
        {
          id: 'cap',
          name: 'Hot wallet cap',
          match: { outflow24hUsdAbove: '2000000' },
          outcome: { action: 'BLOCK' },
        },
      ],
      fallback: DEFAULT_POLICY.fallback,
    };
    expect(ruleFor(capped, transfer({ outflow24hUsd: '1950000', amountUsd: '50000' }))).toBeNull();
    expect(ruleFor(capped, transfer({ outflow24hUsd: '1950000', amountUsd: '50000.01' }))?.id).toBe(
      'cap',
    );
  });

  it('freezes the rule with the version it came from', () => {
    expect(requirementFor(policy, 7, transfer())).toMatchObject({
      policyVersion: 7,
      ruleId: 'big',
      ruleName: 'Big transfers',
      outcome: { approvals: 2 },
    });
    expect(requirementFor(policy, 7, transfer({ amountUsd: '1' }))).toMatchObject({
      ruleId: null,
      ruleName: 'Default',
    });
  });
});

describe('collecting approvals', () => {
  const big = requirementFor(policy, 1, transfer());

  it('stays pending at one of two, approves at two distinct approvers', () => {
    expect(tally(big, ivy, [approve(ada)])).toMatchObject({ state: 'PENDING', required: 2 });
    expect(tally(big, ivy, [approve(ada), approve(ada)]).state).toBe('PENDING');
    expect(tally(big, ivy, [approve(ada), approve(cy)]).state).toBe('APPROVED');
  });

  it('one eligible decline ends it; an ineligible one counts for nothing', () => {
    expect(tally(big, ivy, [approve(ada), decline(bo)])).toMatchObject({
      state: 'DECLINED',
      declinedBy: bo,
    });
    expect(tally(big, ivy, [decline(bot), approve(ada)]).state).toBe('PENDING');
  });

  it('never counts the initiator; an API client counts for its own item only where allowed', () => {
    expect(isEligible(twoApprovers.outcome as AllowOutcome, ada, ada)).toBe(false);
    expect(isEligible(DEFAULT_POLICY.fallback, bot, bot)).toBe(true);
    expect(
      isEligible({ ...DEFAULT_POLICY.fallback, apiClientMayApproveOwn: false }, bot, bot),
    ).toBe(false);
    expect(isEligible(DEFAULT_POLICY.fallback, ada, ada)).toBe(false);
  });

  it("the default is today's rule: one approval from anyone who may approve but the creator", () => {
    const req = requirementFor(DEFAULT_POLICY, 0, transfer());
    expect(tally(req, ivy, [approve(ivy)]).state).toBe('PENDING');
    expect(tally(req, ivy, [approve({ ...ivy, id: 'ivo' })]).state).toBe('PENDING');
    expect(tally(req, ivy, [approve(bot)]).state).toBe('APPROVED');
    expect(tally(req, ada, [approve(bo)]).state).toBe('APPROVED');
  });

  it('a named member counts whatever their role', () => {
    const named: AllowOutcome = {
      action: 'ALLOW',
      approvals: 1,
      approvers: { kinds: ['admin'], memberIds: ['ada'] },
      apiClientMayApproveOwn: false,
    };
    expect(isEligible(named, ivy, ada)).toBe(true);
    expect(isEligible(named, ivy, bo)).toBe(false);
    expect(isEligible(named, ivy, cy)).toBe(true);
  });
});

describe('a decision on a settled item', () => {
  const big = requirementFor(policy, 1, transfer());

  it('sends the outcome again only for a member of the quorum repeating their decision', () => {
    const decisions = [approve(ada), decline(ivy), approve(cy)];
    const approved = tally(big, ivy, decisions);
    expect(approved.state).toBe('APPROVED');
    expect(mayResendSettled(approved, decisions, approve(ada))).toBe(true);
    expect(mayResendSettled(approved, decisions, approve(cy))).toBe(true);
    // A quorum member changing their mind, someone outside it, the initiator: nothing.
    expect(mayResendSettled(approved, decisions, decline(ada))).toBe(false);
    expect(mayResendSettled(approved, decisions, approve(bo))).toBe(false);
    expect(mayResendSettled(approved, decisions, approve(ivy))).toBe(false);
  });

  it('after a decline, only the decliner declining again', () => {
    const decisions = [approve(ada), decline(bo)];
    const declined = tally(big, ivy, decisions);
    expect(declined).toMatchObject({ state: 'DECLINED', declinedBy: bo });
    expect(mayResendSettled(declined, decisions, decline(bo))).toBe(true);
    expect(mayResendSettled(declined, decisions, approve(ada))).toBe(false);
    expect(mayResendSettled(declined, decisions, decline(cy))).toBe(false);
  });
});

describe('the policy document', () => {
  it('names the field and the rule for a bad policy', () => {
    const result = Policy.safeParse({
      rules: [
        { ...twoApprovers, outcome: { ...twoApprovers.outcome, approvals: 0 } },
        { ...noBank, id: 'big', match: { amountUsdAtLeast: '-5' } },
      ],
      fallback: DEFAULT_POLICY.fallback,
    });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues).toContain('rules.0.outcome.approvals: at least one approval');
    expect(
      issues.some((i) => i.startsWith('rules.1.match.amountUsdAtLeast: must be a positive')),
    ).toBe(true);
  });

  it('refuses the same rule id twice', () => {
    const result = Policy.safeParse({
      rules: [twoApprovers, twoApprovers],
      fallback: DEFAULT_POLICY.fallback,
    });
    expect(result.error?.issues[0]).toMatchObject({
      path: ['rules', 1, 'id'],
      message: 'rule id "big" is used twice',
    });
  });
});

// Properties over random policies, members and orders of decision.
const staffArb = fc.record({
  kind: fc.constant('staff' as const),
  id: fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6'),
  role: fc.constantFrom('viewer', 'initiator', 'approver', 'admin'),
});
const clientArb = fc.record({
  kind: fc.constant('api_client' as const),
  id: fc.constantFrom('c1', 'c2'),
});
const actorArb: fc.Arbitrary<PolicyActor> = fc.oneof(staffArb, clientArb);
const allowArb: fc.Arbitrary<AllowOutcome> = fc.record({
  action: fc.constant('ALLOW' as const),
  approvals: fc.integer({ min: 1, max: 4 }),
  approvers: fc.record({
    kinds: fc.subarray(['approver', 'admin', 'api_client'] as const),
    memberIds: fc.subarray(['m1', 'm2', 'm3']),
  }),
  apiClientMayApproveOwn: fc.boolean(),
});
const ruleArb: fc.Arbitrary<PolicyRule> = fc.record({
  id: fc.uuid(),
  name: fc.constant('rule'),
  match: fc.record(
    {
      subOrgIds: fc.constantFrom(['a'], ['b'], ['a', 'b']),
      categories: fc.constantFrom(['TRANSFER' as const], ['STAKE' as const]),
      amountUsdAtLeast: fc.constantFrom('1', '1000', '50000'),
      destinationKinds: fc.subarray([...DESTINATION_KINDS], { minLength: 1 }),
    },
    { requiredKeys: [] },
  ),
  outcome: fc.oneof(allowArb, fc.constant({ action: 'BLOCK' as const })),
});
const policyArb: fc.Arbitrary<Policy> = fc.record({
  rules: fc.array(ruleArb, { maxLength: 5 }),
  fallback: allowArb,
});
const factsArb: fc.Arbitrary<ItemFacts> = fc.record({
  subOrgId: fc.constantFrom('a', 'b', null),
  category: fc.constantFrom('TRANSFER', 'STAKE'),
  amountUsd: fc.constantFrom('0.5', '999.99', '1000', '75000', null),
  destinationKind: fc.constantFrom(...DESTINATION_KINDS),
  initiator: actorArb,
});
const decisionsArb = fc.array(
  fc.record({ actor: actorArb, decision: fc.constantFrom('APPROVE' as const, 'DECLINE' as const) }),
  { maxLength: 12 },
);

describe('properties', () => {
  it('never approves with fewer distinct eligible non-initiator approvals than the frozen rule requires', () => {
    fc.assert(
      fc.property(policyArb, factsArb, decisionsArb, (p, facts, decisions) => {
        const req = requirementFor(p, 1, facts);
        const result = tally(req, facts.initiator, decisions);
        if (result.state !== 'APPROVED') return;
        if (req.outcome.action !== 'ALLOW') throw new Error('a blocked item was approved');
        const distinct = new Set(
          decisions
            .filter((d) => d.decision === 'APPROVE')
            .filter((d) => isEligible(req.outcome as AllowOutcome, facts.initiator, d.actor))
            .map((d) => `${d.actor.kind}:${d.actor.id}`),
        );
        expect(distinct.size).toBeGreaterThanOrEqual(req.outcome.approvals);
        // The initiator (a member, or a client not allowed its own) is never among them.
        for (const actor of result.approvedBy) {
          const own = actor.kind === facts.initiator.kind && actor.id === facts.initiator.id;
          expect(own && !(actor.kind === 'api_client' && req.outcome.apiClientMayApproveOwn)).toBe(
            false,
          );
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a block rule always refuses, whatever is decided', () => {
    fc.assert(
      fc.property(policyArb, factsArb, decisionsArb, (p, facts, decisions) => {
        const req = requirementFor(p, 1, facts);
        if (req.outcome.action === 'BLOCK')
          expect(tally(req, facts.initiator, decisions).state).toBe('DECLINED');
      }),
      { numRuns: 1000 },
    );
  });

  it('an eligible decline before the quorum declines; the order of the same decisions is all that matters', () => {
    fc.assert(
      fc.property(policyArb, factsArb, decisionsArb, (p, facts, decisions) => {
        const req = requirementFor(p, 1, facts);
        if (req.outcome.action !== 'ALLOW') return;
        const outcome = req.outcome;
        const result = tally(req, facts.initiator, decisions);
        const firstDecline = decisions.findIndex(
          (d) => d.decision === 'DECLINE' && isEligible(outcome, facts.initiator, d.actor),
        );
        const before = tally(req, facts.initiator, decisions.slice(0, Math.max(firstDecline, 0)));
        if (firstDecline >= 0 && before.state === 'PENDING') {
          // Unless that decliner had already approved (their first decision stands).
          const decliner = decisions[firstDecline]!.actor;
          const earlier = decisions
            .slice(0, firstDecline)
            .some((d) => d.actor.kind === decliner.kind && d.actor.id === decliner.id);
          if (!earlier) expect(result.state).toBe('DECLINED');
        }
        // Counting again over the same record gives the same answer.
        expect(tally(req, facts.initiator, decisions)).toEqual(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('a settled item is sent again only with its own outcome, by a decider it counted; each of them may', () => {
    fc.assert(
      fc.property(
        policyArb,
        factsArb,
        // The store keeps one decision per member or client (a second is not recorded).
        fc.uniqueArray(
          fc.record({
            actor: actorArb,
            decision: fc.constantFrom('APPROVE' as const, 'DECLINE' as const),
          }),
          { maxLength: 12, selector: (d) => `${d.actor.kind}:${d.actor.id}` },
        ),
        actorArb,
        fc.constantFrom('APPROVE' as const, 'DECLINE' as const),
        (p, facts, decisions, actor, decision) => {
          const req = requirementFor(p, 1, facts);
          const result = tally(req, facts.initiator, decisions);
          if (result.state === 'PENDING') return;
          const counted = result.declinedBy ? [result.declinedBy] : result.approvedBy;
          const same = (a: PolicyActor) => a.kind === actor.kind && a.id === actor.id;
          if (mayResendSettled(result, decisions, { actor, decision })) {
            expect(decision).toBe(result.state === 'APPROVED' ? 'APPROVE' : 'DECLINE');
            expect(counted.some(same)).toBe(true);
          }
          for (const decider of counted)
            expect(
              mayResendSettled(result, decisions, {
                actor: decider,
                decision: result.state === 'APPROVED' ? 'APPROVE' : 'DECLINE',
              }),
            ).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
