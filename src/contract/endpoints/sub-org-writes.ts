import { endpoint } from '../endpoint.ts';
import { SubOrg } from '../reference.ts';
import { SubOrgCreateRequest } from '../sub-org-writes.ts';

/**
 * Creating a sub-organization (the JS SDK's createSubOrg). It belongs to the
 * whole organization, so an admin held to some sub-organizations may not make
 * one (capabilities/reference/scope.ts); an API client acts for the
 * organization and may.
 */
export const createSubOrg = endpoint({
  method: 'POST',
  path: '/api/external/sub_orgs/',
  summary:
    'Creates a sub-organization of the organization (MANAGED), named as asked. Only an admin of every sub-organization, or an API client.',
  action: 'create sub-organizations',
  permission: 'admin',
  audit: { action: 'sub_org.create', entityType: 'SUB_ORG' },
  body: SubOrgCreateRequest,
  answer: SubOrg,
});
