import { describe, expect, it } from 'vitest';
import { ssoWidens } from './sso-widening.ts';
import type { UpdateSsoSettings } from './sso.ts';

const inForce = {
  configured: true,
  enabled: true,
  issuer: 'https://idp.example.com',
  clientId: 'console',
  groupsClaim: 'groups',
  passwordSignIn: 'everyone' as const,
  breakGlassEmail: null,
  groups: [
    { groupName: 'payers', role: 'initiator' as const, subOrgIds: ['desk-a'] },
    { groupName: 'admins', role: 'admin' as const, subOrgIds: null },
  ],
};

const same: UpdateSsoSettings = {
  enabled: true,
  label: 'Acme',
  issuer: inForce.issuer,
  clientId: inForce.clientId,
  groupsClaim: 'groups',
  scopes: 'openid email',
  passwordSignIn: 'everyone',
  breakGlassEmail: null,
  groups: inForce.groups,
};

describe('ssoWidens', () => {
  it('finds nothing in a save that renames, narrows, rotates nothing but the label, or turns it off', () => {
    expect(ssoWidens(inForce, same)).toEqual([]);
    expect(ssoWidens(inForce, { ...same, label: 'Acme Corp', scopes: 'openid' })).toEqual([]);
    expect(ssoWidens(inForce, { ...same, enabled: false, issuer: 'https://evil.example' })).toEqual(
      [],
    );
    expect(
      ssoWidens(inForce, {
        ...same,
        groups: [{ groupName: 'payers', role: 'viewer', subOrgIds: ['desk-a'] }],
      }),
    ).toEqual([]);
    // Passwords back on for everyone: what an admin does when the provider is down.
    expect(
      ssoWidens(
        { ...inForce, passwordSignIn: 'break_glass', breakGlassEmail: 'glass@acme.test' },
        same,
      ),
    ).toEqual([]);
  });

  it('names each way a save lets more people in or lets them do more', () => {
    expect(ssoWidens({ ...inForce, enabled: false }, same)).toEqual([
      'It turns single sign-on on.',
    ]);
    expect(ssoWidens({ ...inForce, configured: false, enabled: false, groups: [] }, same)).toEqual([
      'It turns single sign-on on.',
      'It maps the group payers to initiator.',
      'It maps the group admins to admin.',
    ]);
    expect(ssoWidens(inForce, { ...same, issuer: 'https://other.example' })).toEqual([
      'It signs members in through another provider or client.',
    ]);
    expect(ssoWidens(inForce, { ...same, clientId: 'other' })).toEqual([
      'It signs members in through another provider or client.',
    ]);
    expect(ssoWidens(inForce, { ...same, groupsClaim: 'roles' })).toEqual([
      "It reads members' groups from another claim (roles).",
    ]);
    expect(
      ssoWidens(
        { ...inForce, passwordSignIn: 'break_glass', breakGlassEmail: 'glass@acme.test' },
        { ...same, passwordSignIn: 'break_glass', breakGlassEmail: 'other@acme.test' },
      ),
    ).toEqual(['It lets other@acme.test sign in with a password instead.']);
    expect(
      ssoWidens(inForce, {
        ...same,
        groups: [
          { groupName: 'payers', role: 'approver', subOrgIds: ['desk-a'] },
          { groupName: 'admins', role: 'admin', subOrgIds: null },
          { groupName: 'viewers', role: 'viewer', subOrgIds: null },
        ],
      }),
    ).toEqual([
      'It raises the group payers from initiator to approver.',
      'It maps the group viewers to viewer.',
    ]);
    for (const subOrgIds of [null, ['desk-a', 'desk-b']])
      expect(
        ssoWidens(inForce, {
          ...same,
          groups: [{ groupName: 'payers', role: 'initiator', subOrgIds }],
        }),
      ).toEqual(['It widens the sub-organizations of the group payers.']);
  });
});
