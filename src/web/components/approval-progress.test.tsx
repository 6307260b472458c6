import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalProgress, LinkedToYou } from '#contract/approval-progress.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalProgress } from '#contract/endpoints/policies.ts';
import { installFakeApi, json } from '../test/fake-api.ts';
import { renderWithQuery } from '../test/render.tsx';
import { LinkedAccountsNote } from './approval-progress.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function progress(linkedToYou: LinkedToYou | null): ApprovalProgress {
  return {
    entityId: 'tx_1',
    entityType: 'TRANSACTION',
    policyVersion: 1,
    ruleName: 'Default',
    blocked: false,
    required: 1,
    state: 'PENDING',
    approvals: [],
    declinedBy: null,
    eligible: 'approvers or admins',
    stillEligible: [],
    moreEligible: 0,
    apiClientsMayApprove: false,
    linkedToYou,
  };
}

function answering(linkedToYou: LinkedToYou | null) {
  installFakeApi({
    [pathOf(approvalProgress)]: () => json({ results: [progress(linkedToYou)] }),
  });
}

/** A decision between linked accounts is flagged after it is made: the member is told before. */
describe('the linked-accounts warning before a decision', () => {
  it('says plainly, as a note, that the member created the creator’s account and the decision will be flagged', async () => {
    answering({ name: 'Ian Initiator', direction: 'YOU_CREATED_THEM' });
    renderWithQuery(<LinkedAccountsNote entityId="tx_1" />);
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent(
      'You and Ian Initiator are linked accounts (you created their console account): this decision will be flagged for review.',
    );
  });

  it('says so the other way round when the creator made the member’s account', async () => {
    answering({ name: 'Cy Admin', direction: 'THEY_CREATED_YOU' });
    renderWithQuery(<LinkedAccountsNote entityId="tx_1" />);
    expect(await screen.findByRole('note')).toHaveTextContent(
      'You and Cy Admin are linked accounts (they created your console account)',
    );
  });

  it('says nothing when the server finds no link', async () => {
    answering(null);
    const { client } = renderWithQuery(<LinkedAccountsNote entityId="tx_1" />);
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(screen.queryByRole('note')).toBeNull();
  });
});
