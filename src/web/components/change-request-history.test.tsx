import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeRequestRecord } from '#contract/change-request.ts';
import { ChangeRequestHistoryList } from './change-request-history.tsx';

afterEach(cleanup);

const approved: ChangeRequestRecord = {
  changeRequestId: 'cr_1',
  status: 'APPROVED',
  proposedBy: { type: 'STAFF', id: 'staff_ivan', name: 'Ivan Initiator' },
  proposedAt: '2026-11-23T10:00:00.000Z',
  decidedBy: { type: 'STAFF', id: 'staff_alex', name: 'Alex Admin' },
  decidedAt: '2026-11-23T11:00:00.000Z',
  reason: null,
};

function renderHistory(record: ChangeRequestRecord) {
  render(
    <ChangeRequestHistoryList
      history={{ entityId: 'ba_1', source: 'change_requests', results: [record] }}
    />,
  );
}

describe('ChangeRequestHistoryList', () => {
  it('flags a decision between members one of whom created the other', () => {
    renderHistory({ ...approved, linkedAccounts: true });
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent('Approved by Alex Admin');
    expect(item).toHaveTextContent(
      "FlaggedLinked accounts: one of these two members created the other's console account, so they may be one person.",
    );
  });

  it('flags nothing else', () => {
    renderHistory(approved);
    expect(screen.getByRole('listitem')).not.toHaveTextContent(/Flagged|Linked accounts/);
  });
});
