import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { describe, expect } from 'vitest';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { paths } from '#contract/paths.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

/**
 * The inbox of a console in upstream mode (A) over a sandbox custody API (B),
 * over real HTTP. B records every item as created by the one API user A signs
 * with; A names the member who proposed it from its own record of the create
 * and holds that member's own items apart, as the sandbox inbox does.
 */
const upstreamTest = twoConsolesTest();

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function inbox(member: StaffSession) {
  const res = await member.json(`${approvalInbox.path}?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalInboxResponse.parse(res.body);
}

describe('the approvals inbox through an upstream custody API', () => {
  upstreamTest(
    'names the proposer, the vault and the USD value, and marks a member’s own items',
    async ({ t, admin, initiator, approver }) => {
      const transfer = (amount: string) => ({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: t.fixture.treasury.id },
        destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
        amount,
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      });
      const theirs = await initiator.json(paths.transactions(), post(transfer('0.5')));
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
      const mine = await admin.json(paths.transactions(), post(transfer('0.25')));
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const account = await initiator.json(
        paths.bankAccounts(),
        post({
          paymentMethod: 'US_ACH',
          accountName: 'Upstream Payee LLC',
          accountNumber: '444000111',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect(account.status, JSON.stringify(account.body)).toBe(200);
      const id = (res: { body: unknown }) => (res.body as { id: string }).id;

      const seen = await inbox(approver);
      const byId = new Map(seen.results.map((item) => [item.id, item]));
      const byInitiator = { type: 'STAFF', id: initiator.member.id, name: initiator.member.name };
      const tx = byId.get(id(theirs));
      expect(tx).toMatchObject({
        kind: 'TRANSACTION',
        initiator: byInitiator,
        vault: { id: t.fixture.treasury.id, name: 'Treasury' },
        yours: false,
      });
      expect(tx?.kind === 'TRANSACTION' && tx.transaction.amountInUSD).toMatch(
        /^[1-9]\d*(\.\d+)?$/,
      );
      // B knows only the API user A signs as; the inbox still names the member.
      expect(tx?.createdById).toBe(t.apiUser.id);
      expect(byId.get(id(account))).toMatchObject({ kind: 'BANK_ACCOUNT', initiator: byInitiator });
      // The fixture's proposed contact waits too (upstream: a PENDING contact of the list).
      expect(seen.results.filter((i) => i.kind === 'CONTACT').map((i) => i.id)).toEqual([
        t.fixture.contacts.ethPending.id,
      ]);
      expect(seen).toMatchObject({ totalCount: 4, actionableCount: 4 });

      // The admin proposed one: theirs to see, another member's to decide, not counted.
      const adminView = await inbox(admin);
      expect(adminView.results.find((i) => i.id === id(mine))).toMatchObject({
        yours: true,
        initiator: { type: 'STAFF', id: admin.member.id },
      });
      expect(adminView).toMatchObject({ totalCount: 4, actionableCount: 3 });
    },
  );
});
