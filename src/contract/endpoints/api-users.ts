import {
  ApiUserInfo,
  ApiUserKeyIssued,
  ApiUserList,
  CreateApiUser,
  RotateApiUser,
  SetApiUserNetworks,
} from '../api-users.ts';
import { endpoint } from '../endpoint.ts';

/**
 * API users managed by admins (server/console/api-users.routes.ts): an
 * admin of some sub-organizations manages only API users held within them.
 * Sandbox only: upstream, API users are the provider's (409 SANDBOX_ONLY).
 */

export const listApiUsers = endpoint({
  method: 'GET',
  path: '/api/console/api-users/',
  summary:
    'The API users this admin manages (all of them for an admin of every sub-organization), newest first, with their scope, networks, expiry and last use; never a private key.',
  action: 'manage API keys',
  permission: 'admin',
  audit: false,
  answer: ApiUserList,
});

export const createApiUser = endpoint({
  method: 'POST',
  path: '/api/console/api-users/',
  summary:
    'Makes an API user with a new key pair; the answer holds its private key, shown this once and stored nowhere.',
  action: 'manage API keys',
  permission: 'admin',
  audit: { action: 'api_user.create', entityType: 'API_USER', selfRecorded: true },
  body: CreateApiUser,
  answer: ApiUserKeyIssued,
  status: 201,
});

export const rotateApiUserKey = endpoint({
  method: 'POST',
  path: '/api/console/api-users/:apiUserId/rotate/',
  summary:
    'Gives the API user a new Api-Key and key pair: the old ones are refused from now on; the answer holds the new private key, shown this once.',
  action: 'manage API keys',
  permission: 'admin',
  audit: {
    action: 'api_user.rotate',
    entityType: 'API_USER',
    entityParam: 'apiUserId',
    selfRecorded: true,
  },
  resource: 'API user',
  body: RotateApiUser,
  answer: ApiUserKeyIssued,
});

export const setApiUserNetworks = endpoint({
  method: 'PUT',
  path: '/api/console/api-users/:apiUserId/networks/',
  summary:
    'Replaces the networks (CIDRs) the API user’s requests may come from, null for anywhere; its key is kept, and a request from elsewhere is refused (403 IP_NOT_ALLOWED) from the next one on.',
  action: 'manage API keys',
  permission: 'admin',
  audit: {
    action: 'api_user.networks',
    entityType: 'API_USER',
    entityParam: 'apiUserId',
    selfRecorded: true,
  },
  resource: 'API user',
  body: SetApiUserNetworks,
  answer: ApiUserInfo,
});

export const revokeApiUser = endpoint({
  method: 'POST',
  path: '/api/console/api-users/:apiUserId/revoke/',
  summary:
    'Revokes the API user: its key is refused (401) from now on; the row stays for the audit log.',
  action: 'manage API keys',
  permission: 'admin',
  audit: {
    action: 'api_user.revoke',
    entityType: 'API_USER',
    entityParam: 'apiUserId',
    selfRecorded: true,
  },
  resource: 'API user',
  answer: ApiUserInfo,
});
