import { describe, expect, it } from 'vitest';
import { heldApprovalText } from './approvals.ts';

describe('what an approval held by a policy says', () => {
  it('names the rule and how many more it waits for', () => {
    expect(
      heldApprovalText({
        success: true,
        status: 'PENDING',
        policy: { ruleName: 'Big transfers', approvals: 1, required: 2 },
      }),
    ).toBe(
      'Your approval is recorded: 1 of 2 under the rule "Big transfers". It waits for 1 more before anything is sent.',
    );
  });

  it('says nothing for an approval that settled the item, or one no rule held', () => {
    expect(
      heldApprovalText({
        success: true,
        status: 'APPROVED',
        policy: { ruleName: 'Big transfers', approvals: 2, required: 2 },
      }),
    ).toBeNull();
    expect(heldApprovalText({ success: true, status: 'APPROVED' })).toBeNull();
  });
});
