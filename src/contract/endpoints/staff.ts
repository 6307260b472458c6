import {
  AuditFilters,
  AuditListResponse,
  StaffCreateRequest,
  StaffListResponse,
  StaffMember,
  StaffUpdateRequest,
} from '../auth.ts';
import { endpoint } from '../endpoint.ts';

/** Staff management and the audit log: the console's own, for admins (server/console/staff.routes.ts, audit.routes.ts). */

export const listStaff = endpoint({
  method: 'GET',
  path: '/api/console/staff/',
  summary: 'The staff members this admin administers (all of them for an unrestricted admin).',
  action: 'manage staff',
  permission: 'admin',
  audit: false,
  paged: true,
  answer: StaffListResponse,
});

export const createStaff = endpoint({
  method: 'POST',
  path: '/api/console/staff/',
  summary: 'Adds a staff member with a role, a sub-organization scope and an initial password.',
  action: 'manage staff',
  permission: 'admin',
  audit: { action: 'staff.create', entityType: 'STAFF', selfRecorded: true },
  body: StaffCreateRequest,
  answer: StaffMember,
  status: 201,
});

export const updateStaff = endpoint({
  method: 'PATCH',
  path: '/api/console/staff/:staffId/',
  summary: "Changes a member's name, role or scope, or disables them (their sessions end at once).",
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
  answer: StaffMember,
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
