import { ApprovalProgressList, ApprovalProgressQuery } from '../approval-progress.ts';
import { endpoint } from '../endpoint.ts';
import {
  PolicyDraftRequest,
  PolicyPreviewRequest,
  PolicyPreviewResponse,
  PolicyPublishRequest,
  PolicyState,
  PolicyVersion,
} from '../policies.ts';

/**
 * Approval policies, the console's own (server/capabilities/policies/). Every
 * member may read what applies; only an admin of every sub-organization edits,
 * and another such admin publishes (contract/policies.ts, PolicyVersion).
 */

export const getPolicies = endpoint({
  method: 'GET',
  path: '/api/console/policies/:kind/',
  summary: 'The active policy of a kind, its draft if one is open, and every earlier version.',
  action: 'read approval policies',
  permission: 'read',
  audit: false,
  resource: 'policy kind',
  answer: PolicyState,
});

export const savePolicyDraft = endpoint({
  method: 'PUT',
  path: '/api/console/policies/:kind/draft/',
  summary:
    'Saves the whole draft, edited from the revision named (0 begins one from the active version).',
  action: 'edit approval policies',
  permission: 'admin',
  audit: { action: 'policy.draft', entityType: 'POLICY', entityParam: 'kind', selfRecorded: true },
  resource: 'policy kind',
  body: PolicyDraftRequest,
  answer: PolicyVersion,
});

export const discardPolicyDraft = endpoint({
  method: 'DELETE',
  path: '/api/console/policies/:kind/draft/',
  summary: 'Discards the open draft.',
  action: 'edit approval policies',
  permission: 'admin',
  audit: {
    action: 'policy.discard',
    entityType: 'POLICY',
    entityParam: 'kind',
    selfRecorded: true,
  },
  resource: 'policy kind',
  answer: PolicyState,
});

export const publishPolicyDraft = endpoint({
  method: 'POST',
  path: '/api/console/policies/:kind/draft/publish/',
  summary:
    'Publishes the draft revision reviewed: by an admin who did not edit it. Items already created keep the rule frozen on them.',
  action: 'publish approval policies',
  permission: 'admin',
  audit: {
    action: 'policy.publish',
    entityType: 'POLICY',
    entityParam: 'kind',
    selfRecorded: true,
  },
  resource: 'policy kind',
  body: PolicyPublishRequest,
  answer: PolicyState,
});

export const restorePolicyVersion = endpoint({
  method: 'POST',
  path: '/api/console/policies/:kind/versions/:version/restore/',
  summary: 'Opens a draft holding an earlier version, to be published like any other.',
  action: 'edit approval policies',
  permission: 'admin',
  audit: {
    action: 'policy.restore',
    entityType: 'POLICY',
    entityParam: 'kind',
    selfRecorded: true,
  },
  resource: 'policy version',
  answer: PolicyVersion,
});

export const previewPolicy = endpoint({
  method: 'POST',
  path: '/api/console/policies/:kind/preview/',
  summary: 'Which rule an item described by these facts falls under, and what it would need.',
  action: 'read approval policies',
  permission: 'read',
  audit: false,
  resource: 'policy kind',
  body: PolicyPreviewRequest,
  answer: PolicyPreviewResponse,
});

export const approvalProgress = endpoint({
  method: 'GET',
  path: '/api/console/approval_progress/',
  summary:
    'For each of these transactions, bank accounts or contacts the member may see: the rule frozen on it, the approvals collected and who may still approve.',
  action: 'read approval progress',
  permission: 'read',
  audit: false,
  query: ApprovalProgressQuery,
  answer: ApprovalProgressList,
});
