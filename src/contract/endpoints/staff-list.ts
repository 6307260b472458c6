import { endpoint } from '../endpoint.ts';
import { StaffFilters, StaffListResponse } from '../staff-record.ts';

/**
 * The staff list, which pickers on many pages read: apart from staff changes
 * and the audit log (`staff.ts`, which re-exports it) so that the first load
 * carries neither them nor their schemas.
 */

export const listStaff = endpoint({
  method: 'GET',
  path: '/api/console/staff/',
  summary:
    'The staff members this admin administers (all of them for an unrestricted admin), in the order they joined, searched by name or email, filtered by role and sub-organization, and paged.',
  action: 'manage staff',
  permission: 'admin',
  audit: false,
  query: StaffFilters,
  paged: true,
  answer: StaffListResponse,
});
