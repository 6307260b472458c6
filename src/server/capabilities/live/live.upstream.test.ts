import { describe, expect } from 'vitest';
import { liveEvents } from '#contract/endpoints/live.ts';
import type { ApprovalLiveEvent } from '#contract/live-events.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { decideAsStaff, proposeBankAccount } from '../../test/staff-approvals.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

/**
 * Upstream mode (console A over console B's custody API): the custody
 * service's webhooks tell transactions only, so the proposals and decisions
 * made through A reach A's event streams from A's own record
 * (upstream-events.ts), held to each member's sub-organizations.
 */

let deskA: string;
let deskB: string;
const upstreamTest = twoConsolesTest({}, async (t) => {
  deskA = (await createSubOrg(t.b.db, t.b.orgId, 'Upstream desk A')).id;
  deskB = (await createSubOrg(t.b.db, t.b.orgId, 'Upstream desk B')).id;
});

/** A member's stream on console A: its approval events, one at a time. */
async function approvalStream(t: TwoConsoles, member: StaffSession) {
  const res = await t.a.request(liveEvents.path, member.init());
  expect(res.status).toBe(200);
  if (!res.body) throw new Error('no body');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const line = (prefix: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(prefix))
            ?.slice(prefix.length) ?? '';
        return { event: line('event: '), data: line('data: ') };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  while ((await next()).event !== 'ready');
  return {
    async approval(): Promise<ApprovalLiveEvent> {
      for (;;) {
        const frame = await next();
        if (frame.event !== 'change') continue;
        const event = JSON.parse(frame.data) as ApprovalLiveEvent;
        if (event.kind.startsWith('approval.')) return event;
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('approval events in upstream mode', () => {
  upstreamTest(
    'a bank account proposed and decided through the console reaches its sub-org’s streams only',
    async ({ t }) => {
      const proposer = await t.signIn('initiator');
      const approverA = await t.signIn('approver', { subOrgIds: [deskA] });
      const watcherB = await t.signIn('approver', { subOrgIds: [deskB] });
      const a = await approvalStream(t, approverA);
      const b = await approvalStream(t, watcherB);

      const ours = await proposeBankAccount(proposer, deskA);
      expect(await a.approval()).toMatchObject({
        kind: 'approval.proposed',
        entityType: 'BANK_ACCOUNT',
        entityId: ours,
        subOrgId: deskA,
        status: 'PENDING',
      });
      await decideAsStaff(approverA, ours, 'approve');
      expect(await a.approval()).toMatchObject({
        kind: 'approval.decided',
        entityType: 'BANK_ACCOUNT',
        entityId: ours,
        subOrgId: deskA,
        status: 'APPROVED',
      });
      // Desk B's member hears of desk B's proposal first: desk A's two never reached them.
      const theirs = await proposeBankAccount(proposer, deskB);
      expect(await b.approval()).toMatchObject({ entityId: theirs, subOrgId: deskB });
      await Promise.all([a.cancel(), b.cancel()]);
    },
  );
});
