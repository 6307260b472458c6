import * as z from 'zod/mini';
import { ApprovalCard } from './approval-card.ts';
import { ApprovalInboxCounts } from './approval-inbox-counts.ts';
import { ApprovalProgress } from './approval-progress.ts';
import { BankAccount } from './bank-account-record.ts';
import { ChangeRequestActor } from './change-request.ts';
import { listEnvelope } from './common.ts';
import { Contact } from './reference.ts';
import { Transaction } from './transaction-record.ts';

/**
 * The console's approvals inbox: every transaction, bank account, contact and
 * item of a kind the console holds waiting for a decision (PENDING) that the
 * signed-in member may see, newest first,
 * in one cursor-paged list (GET /api/console/approvals/). The custody API
 * lists each kind on its own; one merged, keyset-paged answer is what lets a
 * page of the inbox be "the 20 newest items" rather than two lists side by
 * side.
 *
 * Items the member created themselves are listed with `yours: true`: four-eyes
 * means another member must decide them, so they are shown, never counted
 * in `actionableCount` (the navigation's badge).
 *
 * Each item carries what an approver scans the inbox for, named by the
 * server so that no row costs a request of its own: who proposed it
 * (`initiator`, as the transaction and bank-account pages name them), the
 * vault a transaction spends from (`vault`), and, in the transaction itself,
 * its value in USD (`transaction.amountInUSD`, when the custody API values
 * it). Both backends answer this same shape.
 */

const itemBase = {
  id: z.string(),
  createdAt: z.nullable(z.string()),
  subOrgId: z.nullable(z.string()),
  createdById: z.nullable(z.string()),
  /** The signed-in member created it: another member must decide. */
  yours: z.boolean(),
  /**
   * Who proposed it, named where the console knows them (a staff member by
   * their name, an API client by its own); null when nothing this console
   * records names them (then `createdById` is all there is).
   */
  initiator: z.nullable(ChangeRequestActor),
  /**
   * The approvals collected under the rule frozen on it, and who may still
   * approve (approval-progress.ts); absent from the badge's count, null for
   * an item created before approval policies.
   */
  progress: z.optional(z.nullable(ApprovalProgress)),
  /**
   * When the signed-in member approved it, while it still waits for more
   * approvals its rule asks for: nothing is left for them to decide, so it is
   * not counted in `actionableCount`. Null when they have not.
   */
  youApprovedAt: z.optional(z.nullable(z.string())),
};

/** The vault a transaction spends from; its name when the custody API or the vault list gives one. */
export const ApprovalVault = z.looseObject({
  id: z.string(),
  name: z.nullable(z.string()),
});
export type ApprovalVault = z.infer<typeof ApprovalVault>;

export const ApprovalItem = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('TRANSACTION'),
    ...itemBase,
    /** The source vault; null when the transaction names none. */
    vault: z.nullable(ApprovalVault),
    transaction: Transaction,
  }),
  // Account and routing numbers arrive masked, as on every bank-account read a member makes.
  z.looseObject({ kind: z.literal('BANK_ACCOUNT'), ...itemBase, bankAccount: BankAccount }),
  /**
   * A contact proposed, or a new asset list for an approved one
   * (`contact.pendingAssetList`): `createdAt` and `createdById` are the
   * change request's, so an edit waits from when it was proposed.
   */
  z.looseObject({ kind: z.literal('CONTACT'), ...itemBase, contact: Contact }),
  /**
   * An item of a kind the console holds itself (a policy publish, a staff
   * change, …), decided through the approval core: its approval card is all
   * there is to show, and what is signed (`card.intent.kind` names its kind).
   */
  z.looseObject({ kind: z.literal('HELD'), ...itemBase, card: ApprovalCard }),
]);
export type ApprovalItem = z.infer<typeof ApprovalItem>;

export const ApprovalInboxResponse = z.extend(
  listEnvelope(ApprovalItem),
  ApprovalInboxCounts.shape,
);
export type ApprovalInboxResponse = z.infer<typeof ApprovalInboxResponse>;
