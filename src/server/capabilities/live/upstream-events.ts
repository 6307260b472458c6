import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { Database } from '../../db/client.ts';
import { raiseApprovalEvent } from './approval-source.ts';

type Raised = Parameters<typeof raiseApprovalEvent>[1];

/**
 * Upstream mode: bank accounts and contacts live at the custody service,
 * whose webhooks tell only transactions' statuses. So the console raises the
 * approval events of the proposals and decisions made through it
 * (`console.approval_events`, tailed by every console server's event stream)
 * once the custody service has answered; there is no shared database
 * transaction to raise them in, so one whose insert fails is logged and the
 * browsers' fallback (a reconnect's reset, a page's own read) catches up.
 * Changes made elsewhere (an SDK talking to the service directly) are not
 * known to the console and are not pushed. Sandbox mode raises them in the
 * change's own transaction instead (custody/sandbox/change-request-events.ts).
 */
export function raiseUpstreamApprovalEvents(
  inner: CustodyBackend,
  deps: { db: Database; clock: Clock; logger: Pick<Logger, 'warn'> },
): CustodyBackend {
  const raise = async (event: Raised) => {
    try {
      await raiseApprovalEvent(deps.db, event, deps.clock);
    } catch (error) {
      deps.logger.warn({ err: error }, 'live updates: an approval event could not be recorded');
    }
  };

  /** What a decided entity is, and its sub-org; undefined for a transaction (its webhooks tell). */
  async function decidedEntity(ctx: CustodyContext, entityId: string) {
    try {
      const account = await inner.getBankAccount(ctx, entityId);
      return { entityType: 'BANK_ACCOUNT' as const, subOrgId: account.subOrgId ?? null };
    } catch {
      // Not a bank account: a contact, or a transaction.
    }
    try {
      const contact = await inner.getContact(ctx, entityId);
      return { entityType: 'CONTACT' as const, subOrgId: contact.subOrgId ?? null };
    } catch {
      return undefined;
    }
  }

  return {
    ...inner,
    async createBankAccount(ctx, input) {
      const created = await inner.createBankAccount(ctx, input);
      if (created.id)
        await raise({
          kind: 'PROPOSED',
          entityType: 'BANK_ACCOUNT',
          entityId: created.id,
          subOrgId: created.subOrgId ?? null,
          status: 'PENDING',
        });
      return created;
    },
    async createContact(ctx, body) {
      const created = await inner.createContact(ctx, body);
      if (created.id)
        await raise({
          kind: 'PROPOSED',
          entityType: 'CONTACT',
          entityId: created.id,
          subOrgId: created.subOrgId ?? null,
          status: 'PENDING',
        });
      return created;
    },
    async updateContact(ctx, contactId, body) {
      const changed = await inner.updateContact(ctx, contactId, body);
      await raise({
        kind: 'PROPOSED',
        entityType: 'CONTACT',
        entityId: contactId,
        subOrgId: changed.subOrgId ?? null,
        status: 'PENDING',
      });
      return changed;
    },
    async decideApproval(ctx, approvalId, request) {
      const answer = await inner.decideApproval(ctx, approvalId, request);
      const status = answer.status;
      if (answer.entityId && (status === 'APPROVED' || status === 'REJECTED')) {
        const entity = await decidedEntity(ctx, answer.entityId);
        if (entity) await raise({ kind: 'DECIDED', entityId: answer.entityId, status, ...entity });
      }
      return answer;
    },
  };
}
