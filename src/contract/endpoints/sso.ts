import { endpoint } from '../endpoint.ts';
import {
  CreateScimToken,
  ScimTokenCreated,
  ScimTokenInfo,
  SsoSettings,
  SsoSignInOptions,
  UpdateSsoSettings,
} from '../sso.ts';

/**
 * Single sign-on and SCIM settings (server/auth/sso/): an organization's,
 * so only an admin of every sub-organization reads or changes them. The
 * sign-in page's read needs no session.
 */

export const ssoSignInOptions = endpoint({
  method: 'GET',
  path: '/auth/sso',
  summary: 'Whether the sign-in page offers single sign-on (its button label) and passwords.',
  action: 'read',
  permission: 'public',
  audit: false,
  answer: SsoSignInOptions,
});

export const getSsoSettings = endpoint({
  method: 'GET',
  path: '/api/console/sso/',
  summary: 'The single sign-on settings, group mappings and SCIM tokens (never the secret).',
  action: 'manage single sign-on',
  permission: 'admin',
  audit: false,
  answer: SsoSettings,
});

export const updateSsoSettings = endpoint({
  method: 'PUT',
  path: '/api/console/sso/',
  summary:
    'Sets the OpenID provider, the group mappings and who may still sign in with a password.',
  action: 'manage single sign-on',
  permission: 'admin',
  audit: { action: 'sso.update', entityType: 'SSO_SETTINGS', selfRecorded: true },
  body: UpdateSsoSettings,
  answer: SsoSettings,
});

export const createScimToken = endpoint({
  method: 'POST',
  path: '/api/console/sso/scim-tokens/',
  summary: 'Makes a SCIM bearer token; the answer holds it, shown this once.',
  action: 'manage single sign-on',
  permission: 'admin',
  audit: { action: 'sso.scim_token.create', entityType: 'SCIM_TOKEN', selfRecorded: true },
  body: CreateScimToken,
  answer: ScimTokenCreated,
  status: 201,
});

export const revokeScimToken = endpoint({
  method: 'DELETE',
  path: '/api/console/sso/scim-tokens/:tokenId/',
  summary: 'Revokes a SCIM bearer token: its next request is refused.',
  action: 'manage single sign-on',
  permission: 'admin',
  audit: {
    action: 'sso.scim_token.revoke',
    entityType: 'SCIM_TOKEN',
    entityParam: 'tokenId',
    selfRecorded: true,
  },
  resource: 'SCIM token',
  answer: ScimTokenInfo,
});
