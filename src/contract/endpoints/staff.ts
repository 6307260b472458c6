import {
  AuditFilters,
  AuditListResponse,
  StaffChangeAnswer,
  StaffCreateRequest,
  StaffProposal,
  StaffProposalDecisionRequest,
  StaffProposalList,
  StaffUpdateRequest,
} from '../auth.ts';
import { endpoint } from '../endpoint.ts';

// The staff list fills pickers on many pages: declared apart from the changes (first load).
export { listStaff } from './staff-list.ts';

/** Staff management and the audit log: the console's own, for admins (server/console/staff.routes.ts, audit.routes.ts). */

export const createStaff = endpoint({
  method: 'POST',
  path: '/api/console/staff/',
  summary:
    'Adds a staff member (a viewer or initiator at once; approve or admin rights as a proposal another admin approves), answering their one-time set-up code.',
  action: 'manage staff',
  permission: 'admin',
  audit: { action: 'staff.create', entityType: 'STAFF', selfRecorded: true },
  body: StaffCreateRequest,
  answer: StaffChangeAnswer,
  status: 201,
});

export const updateStaff = endpoint({
  method: 'PATCH',
  path: '/api/console/staff/:staffId/',
  summary:
    "Changes a member's name, role or scope, or disables them; a change granting approve or admin rights or a wider scope is proposed to another admin. A role or scope change ends the member's sessions.",
  action: 'manage staff',
  permission: 'admin',
  audit: {
    action: 'staff.update',
    entityType: 'STAFF',
    entityParam: 'staffId',
    selfRecorded: true,
  },
  resource: 'staff member',
  body: StaffUpdateRequest,
  answer: StaffChangeAnswer,
});

export const proposeFactorReset = endpoint({
  method: 'POST',
  path: '/api/console/staff/:staffId/second-factor-reset/',
  summary:
    "Proposes clearing another member's second factor (they set up a new one at their next sign-in); another admin approves.",
  action: 'manage staff',
  permission: 'admin',
  audit: {
    action: 'staff.reset_factor',
    entityType: 'STAFF',
    entityParam: 'staffId',
    selfRecorded: true,
  },
  resource: 'staff member',
  answer: StaffChangeAnswer,
});

export const listStaffProposals = endpoint({
  method: 'GET',
  path: '/api/console/staff/proposals/',
  summary: 'Staff changes awaiting another admin, oldest first (those this admin administers).',
  action: 'manage staff',
  permission: 'admin',
  audit: false,
  paged: true,
  answer: StaffProposalList,
});

export const decideStaffProposal = endpoint({
  method: 'POST',
  path: '/api/console/staff/proposals/:proposalId/decision/',
  summary:
    'Approves (applies) or declines a staff change: not by its proposer, the member it changes, or an account linked to the proposer.',
  action: 'decide staff changes',
  permission: 'admin',
  audit: {
    action: 'staff.proposal',
    entityType: 'STAFF_PROPOSAL',
    entityParam: 'proposalId',
    selfRecorded: true,
  },
  resource: 'staff proposal',
  body: StaffProposalDecisionRequest,
  answer: StaffProposal,
});

export const listAudit = endpoint({
  method: 'GET',
  path: '/api/console/audit/',
  summary: 'The audit log, newest first, filtered and keyset-paged (unrestricted admins only).',
  action: 'read the audit log',
  permission: 'admin',
  audit: false,
  query: AuditFilters,
  paged: true,
  answer: AuditListResponse,
});
