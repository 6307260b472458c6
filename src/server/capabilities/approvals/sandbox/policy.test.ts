import { describe, expect, it } from 'vitest';
import { creatorOf } from '../../../custody/sandbox/change-request.ts';
import { decideApprovalPolicy, type ApprovalPolicyInput } from './policy.ts';

const staff = (id: string) => ({ type: 'STAFF' as const, id });
const apiUser = (id: string) => ({ type: 'API_USER' as const, id, orgId: 'org-1' });
const createdBy = (createdByType: string, createdById: string) => ({ createdByType, createdById });

function decide(input: Partial<ApprovalPolicyInput> & Pick<ApprovalPolicyInput, 'actor'>) {
  return decideApprovalPolicy({
    changeRequest: createdBy('API_USER', 'someone-else'),
    apiUserSelfApproval: true,
    ...input,
  });
}

describe('approval policy: four-eyes for staff', () => {
  it('refuses a member deciding a request they created, whatever the organization allows', () => {
    for (const apiUserSelfApproval of [true, false]) {
      const decision = decide({
        actor: staff('m-1'),
        changeRequest: createdBy('STAFF', 'm-1'),
        apiUserSelfApproval,
      });
      expect(decision).toEqual({
        allowed: false,
        status: 403,
        code: 'FOUR_EYES',
        message: expect.stringMatching(/you created this request; another member must decide/),
      });
    }
  });

  it('lets another member decide, without a signature', () => {
    expect(decide({ actor: staff('m-2'), changeRequest: createdBy('STAFF', 'm-1') })).toEqual({
      allowed: true,
      actor: staff('m-2'),
      signatureRequired: false,
    });
  });

  it('lets a member decide what an API user or an anonymous caller created', () => {
    for (const creator of [
      createdBy('API_USER', 'u-1'),
      createdBy('ANONYMOUS', 'sandbox-anonymous'),
    ]) {
      expect(decide({ actor: staff('m-1'), changeRequest: creator })).toMatchObject({
        allowed: true,
      });
    }
  });

  it('does not confuse an API user and a member that happen to share an id', () => {
    expect(
      decide({ actor: staff('same-id'), changeRequest: createdBy('API_USER', 'same-id') }),
    ).toMatchObject({ allowed: true });
  });
});

describe('approval policy: API users', () => {
  it('lets an API user decide its own request while the organization allows it, with a signature', () => {
    expect(decide({ actor: apiUser('u-1'), changeRequest: createdBy('API_USER', 'u-1') })).toEqual({
      allowed: true,
      actor: apiUser('u-1'),
      signatureRequired: true,
    });
  });

  it("refuses self-approval when the organization's policy is off", () => {
    expect(
      decide({
        actor: apiUser('u-1'),
        changeRequest: createdBy('API_USER', 'u-1'),
        apiUserSelfApproval: false,
      }),
    ).toMatchObject({ allowed: false, status: 403, code: 'SELF_APPROVAL_NOT_ALLOWED' });
  });

  it('lets another API user or a member-created request through when self-approval is off', () => {
    for (const creator of [createdBy('API_USER', 'u-2'), createdBy('STAFF', 'u-1')]) {
      expect(
        decide({ actor: apiUser('u-1'), changeRequest: creator, apiUserSelfApproval: false }),
      ).toMatchObject({ allowed: true, signatureRequired: true });
    }
  });
});

describe('approval policy: nobody', () => {
  it('refuses an anonymous caller with 401', () => {
    expect(decide({ actor: undefined })).toEqual({
      allowed: false,
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'approving needs an API user or a signed-in staff member',
    });
  });
});

describe('creator rule, one for transactions and bank accounts', () => {
  it('names the caller, or the anonymous creator nobody can match when deciding', () => {
    expect(creatorOf(staff('m-1'))).toEqual({ id: 'm-1', type: 'STAFF' });
    expect(creatorOf(apiUser('u-1'))).toEqual({ id: 'u-1', type: 'API_USER' });
    const anonymous = creatorOf(undefined);
    expect(anonymous).toEqual({ id: 'sandbox-anonymous', type: 'ANONYMOUS' });
    expect(
      decide({ actor: apiUser('u-1'), changeRequest: createdBy(anonymous.type, anonymous.id) }),
    ).toMatchObject({ allowed: true });
  });
});
