import type { ChangeRequestEntityType } from '../../../../contract/enums.ts';
import { canonicalJson } from '../../../protocol/canonical-json.ts';

export type { ChangeRequestEntityType };

export interface ApprovalMessageInput {
  approvalId: string;
  changeRequestId: string;
  entityType: ChangeRequestEntityType;
  entityId: string;
  orgId: string;
  createdAt: Date;
  /** A change to an existing entity (an approved contact's new asset list): signed with the rest. */
  proposedChange?: { assetList: string[] } | null;
}

/**
 * The text an approver signs: everything that identifies the
 * decision, as canonical JSON so a signature made by any client over these
 * exact bytes verifies.
 */
export function approvalMessage(input: ApprovalMessageInput): string {
  return canonicalJson({
    type: 'CHANGE_REQUEST_APPROVAL',
    approvalId: input.approvalId,
    changeRequestId: input.changeRequestId,
    entityType: input.entityType,
    entityId: input.entityId,
    orgId: input.orgId,
    createdAt: input.createdAt.toISOString(),
    ...(input.proposedChange ? { proposedChange: input.proposedChange } : {}),
  });
}
