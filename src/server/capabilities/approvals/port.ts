import type { ApprovalDecision } from '#contract/approval-decision.ts';
import type {
  ApprovalActionRequest,
  ApprovalActionResponse,
  ApprovalMessageResponse,
} from '#contract/approvals.ts';
import type { BankAccount } from '#contract/bank-account.ts';
import type { ChangeRequestActor, ChangeRequestRecord } from '#contract/change-request.ts';
import type { Contact } from '#contract/reference.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

/** An item's place in the approvals inbox: newest first, then kind, then id (all descending). */
export interface PendingApprovalPosition {
  createdAt: Date;
  /** The kind's name: a kind the backend does not list (one the console holds) is placed by it too. */
  kind: string;
  id: string;
}

export interface PendingApprovalsQuery extends ScopeFilter {
  /** 0: the counts alone, no page. */
  limit: number;
  /** The last item of the previous page: the page starts strictly after it. */
  after?: PendingApprovalPosition | undefined;
  /** A staff member: what they proposed is counted apart (four-eyes: not theirs to decide). */
  creatorId?: string | undefined;
  /**
   * Items the console recorded this member approving that still wait for
   * others: nothing left for them to decide, so counted apart like their own.
   */
  decidedIds?: readonly string[] | undefined;
  /**
   * Also answer `oldestNotTheirsAt` (the overview's "waiting" figure): the
   * inbox's badge and pages have no use for it, so it is read only when asked.
   */
  withOldest?: boolean | undefined;
}

/**
 * Who proposed a pending item (the creator its change request names): an API
 * user named by the backend; a staff member by id only (the console names
 * its members). Null or absent when the backend cannot say.
 */
export type PendingApprovalInitiator = ChangeRequestActor | null;

export type PendingApproval =
  | { kind: 'TRANSACTION'; transaction: Transaction; initiator?: PendingApprovalInitiator }
  | { kind: 'BANK_ACCOUNT'; bankAccount: BankAccount; initiator?: PendingApprovalInitiator }
  | {
      kind: 'CONTACT';
      /** With `pendingAssetList` when what waits is a change to an approved contact. */
      contact: Contact;
      /** The change request's: when it was proposed and by whom (an edit's, not the contact's). */
      requestedAt: string;
      requestedById: string;
      initiator?: PendingApprovalInitiator;
    };

export interface PendingApprovals {
  /** At most `limit` items after `after`, in the inbox's order. */
  items: PendingApproval[];
  hasNext: boolean;
  /** Every PENDING item in the query's scope, all pages. */
  totalCount: number;
  /** Of those, the ones `creatorId` did not propose and did not approve (`decidedIds`). */
  actionableCount: number;
  /** Of those, the ones in `decidedIds`: approved by the member, waiting for more. */
  youApprovedCount: number;
  /**
   * With `withOldest`: when the oldest waiting item that `creatorId` did not
   * propose came in (whether or not they approved it), null when none does.
   */
  oldestNotTheirsAt?: Date | null;
}

export type RecordedApprovalDecision = ApprovalDecision & { subOrgId: string | null };

/** Change-request approvals, and what the console reads of them, as either backend answers them. */
export interface ApprovalsPort {
  // Change-request approvals: the message to sign, then the decision.
  getApprovalMessage(ctx: CustodyContext, entityId: string): Promise<ApprovalMessageResponse>;
  decideApproval(
    ctx: CustodyContext,
    approvalId: string,
    request: ApprovalActionRequest,
  ): Promise<ApprovalActionResponse>;
  /**
   * The entity an approval is about, or null: lets the scope layer refuse a
   * member's decision outside their sub-orgs before anything is decided.
   * Without it, members restricted to some sub-orgs cannot decide at all.
   */
  approvalEntityId?(ctx: CustodyContext, approvalId: string): Promise<string | null>;
  /**
   * Every change request about an entity, oldest first: who proposed and who
   * decided it, when, and the reason. The custody API has no such read, so
   * only a backend that holds change requests (the sandbox) offers it; the
   * console falls back to its own audit log otherwise. The caller checks
   * the entity's scope first.
   */
  changeRequestHistory?(ctx: CustodyContext, entityId: string): Promise<ChangeRequestRecord[]>;
  /**
   * How these entities' change requests were decided (the latest decided one
   * each; undecided entities are absent). The custody API has no such read,
   * so only the sandbox offers it; the console falls back to its audit log.
   * Each carries the entity's sub-org so the caller can hold it to a scope.
   */
  approvalDecisions?(
    ctx: CustodyContext,
    entityIds: readonly string[],
  ): Promise<RecordedApprovalDecision[]>;

  /**
   * The approvals inbox's page and counts in one read: PENDING transactions
   * and bank accounts together, keyset-paged in the inbox's order, counted
   * without reading the rows. The custody API has no such read, so only the
   * sandbox offers it; the console otherwise reads the two lists page by
   * page (console/approval-inbox.ts).
   */
  pendingApprovals?(ctx: CustodyContext, query: PendingApprovalsQuery): Promise<PendingApprovals>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends ApprovalsPort {}
}
