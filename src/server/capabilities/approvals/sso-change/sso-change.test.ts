import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { SsoSettings, SsoSignInOptions, type UpdateSsoSettings } from '#contract/sso.ts';
import { appTest } from '../../../test/app-test.ts';
import { jsonBody } from '../../../test/ledger-periods.ts';
import type { StaffSession } from '../../../test/staff-session.ts';

/**
 * Single sign-on decides who enters and with which role: a save that lets
 * more people in, or lets them do more, waits for another admin of every
 * sub-organization on its held item, as the Staff page's proposals do; one
 * that only narrows or renames applies at once; a later save withdraws the
 * one that waits.
 */

const settings: UpdateSsoSettings = {
  enabled: true,
  label: 'Acme',
  issuer: 'https://idp.acme.test',
  clientId: 'console',
  clientSecret: 'a secret never shown',
  groupsClaim: 'groups',
  scopes: 'openid email profile',
  passwordSignIn: 'everyone',
  breakGlassEmail: null,
  groups: [{ groupName: 'treasury-admins', role: 'admin', subOrgIds: null }],
};

async function save(member: StaffSession, body: UpdateSsoSettings) {
  const res = await member.json('/api/console/sso/', jsonBody('PUT', body));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return SsoSettings.parse(res.body);
}

const decide = (member: StaffSession, entityId: string, action: 'approve' | 'reject') =>
  member.json(
    pathOf(decideApprovable, { entityId }),
    jsonBody('POST', action === 'approve' ? { action } : { action, reason: 'not now' }),
  );

describe('single sign-on changes that widen access', () => {
  appTest(
    'wait for another admin, who sees what changes, and apply once approved',
    async ({ t }) => {
      const proposer = await t.signIn('admin', { name: 'Pat Proposer' });
      const decider = await t.signIn('admin', { name: 'Dee Decider' });

      const held = await save(proposer, settings);
      // Nothing is in force yet: the sign-in page offers no single sign-on.
      expect(held).toMatchObject({ configured: false, enabled: false, clientSecretSet: false });
      expect(held.pendingChange).toMatchObject({
        proposedBy: { name: 'Pat Proposer' },
        widens: ['It turns single sign-on on.', 'It maps the group treasury-admins to admin.'],
      });
      const id = held.pendingChange?.id ?? '';
      const signInPage = await t.anonymous('/auth/sso');
      expect(SsoSignInOptions.parse(await signInPage.json()).sso).toBeNull();

      // The proposer never decides it.
      expect((await decide(proposer, id, 'approve')).status).toBe(403);

      // The other admin's card names each setting and mapping, and never the secret.
      const card = await decider.json(pathOf(approvalCard, { entityId: id }));
      expect(card.status, JSON.stringify(card.body)).toBe(200);
      expect(card.body).toMatchObject({
        card: {
          intent: {
            kind: 'SINGLE_SIGN_ON_CHANGE',
            category: 'SINGLE_SIGN_ON',
            change: {
              lines: expect.arrayContaining([
                { label: 'Issuer', before: null, after: 'https://idp.acme.test' },
                { label: 'Client secret', before: null, after: 'replaced (never shown)' },
                {
                  label: 'Group treasury-admins',
                  before: null,
                  after: 'admin, every sub-organization',
                },
              ]),
            },
          },
          status: { state: 'PENDING' },
        },
      });
      expect(JSON.stringify(card.body)).not.toContain('a secret never shown');

      const approved = await decide(decider, id, 'approve');
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      const now = SsoSettings.parse(await (await t.admin.request('/api/console/sso/')).json());
      expect(now).toMatchObject({
        enabled: true,
        issuer: 'https://idp.acme.test',
        clientSecretSet: true,
        pendingChange: null,
        groups: settings.groups,
      });
      expect(SsoSignInOptions.parse(await (await t.anonymous('/auth/sso')).json()).sso).toEqual(
        expect.objectContaining({ label: 'Acme' }),
      );
      // Decided once.
      expect((await decide(decider, id, 'approve')).status).toBe(409);

      // A save that only renames or narrows applies at once.
      const { clientSecret: _kept, ...withoutSecret } = settings;
      const renamed = await save(proposer, { ...withoutSecret, label: 'Acme Corp', groups: [] });
      expect(renamed).toMatchObject({ label: 'Acme Corp', groups: [], pendingChange: null });
    },
  );

  appTest(
    'a later save withdraws the change that waits; an admin held to sub-organizations never sees it',
    async ({ t }) => {
      const proposer = await t.signIn('admin', { name: 'Pat Again' });
      const decider = await t.signIn('admin', { name: 'Dee Again' });
      const desk = await t.signIn('admin', { name: 'Desk Admin', subOrgIds: ['sub_somewhere'] });
      const first = (await save(proposer, settings)).pendingChange?.id ?? '';
      expect((await desk.json(pathOf(approvalCard, { entityId: first }))).status).toBe(404);

      // Turning it off again, with nothing mapped, narrows: applied at once, the first withdrawn.
      const off = await save(proposer, { ...settings, enabled: false, groups: [] });
      expect(off).toMatchObject({ configured: true, enabled: false, pendingChange: null });
      const late = await decide(decider, first, 'approve');
      expect(late.status).toBe(409);
      expect(JSON.stringify(late.body)).toMatch(/withdrawn|already decided/);
      const after = SsoSettings.parse(await (await t.admin.request('/api/console/sso/')).json());
      expect(after).toMatchObject({ enabled: false, groups: [] });

      // A declined change leaves the settings in force.
      const second = (await save(proposer, settings)).pendingChange?.id ?? '';
      expect((await decide(decider, second, 'reject')).status).toBe(200);
      const still = SsoSettings.parse(await (await t.admin.request('/api/console/sso/')).json());
      expect(still).toMatchObject({ enabled: false, groups: [], pendingChange: null });
    },
  );
});
