import { and, desc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { auditLog, staff } from '../../db/schema/console.ts';
import { appTestWith } from '../../test/app-test.ts';
import {
  CookieJar,
  startTestOidcProvider,
  TEST_SSO_SCOPES,
  type TestOidcProvider,
} from '../../test/oidc-provider.ts';
import { saveSsoSettingsApproved } from '../../test/sso-settings.ts';
import type { TestApp } from '../../test/test-app.ts';
import { TEST_ORIGIN } from '../../test/staff-session.ts';
import { hashPassword } from '../password.ts';
import type { AuthOptions } from '../session-auth.ts';
import { createStaff } from '../staff.store.ts';
import { checkSsoSessions } from './session-check.ts';

// Single sign-on through a real OpenID provider started on 127.0.0.1. The app answers at
// http://localhost (app.request), so that is the redirect URI the provider knows.
const CALLBACK = 'http://localhost/auth/sso/callback';

const ssoTest = appTestWith({ secondFactor: 'optional' })
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  .extend('provider', { scope: 'file' }, async ({}, { onCleanup }) => {
    // As Google: a refresh token at a person's first consent only; rotated at each use, as
    // providers that rotate do (a used one refused, and its grant revoked, if presented again).
    const provider = await startTestOidcProvider({
      redirectUris: [CALLBACK],
      refreshTokens: 'first-grant',
      rotateRefreshTokens: true,
    });
    onCleanup(() => provider.close());
    return provider;
  })
  .extend('configured', { scope: 'file' }, async ({ t, provider }) => {
    // Turning it on with its groups mapped widens access: a second admin approves it.
    const saved = await saveSsoSettingsApproved(t, {
      enabled: true,
      label: 'Acme',
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      groupsClaim: 'groups',
      scopes: TEST_SSO_SCOPES,
      passwordSignIn: 'everyone',
      breakGlassEmail: null,
      groups: [
        { groupName: 'treasury-approvers', role: 'approver', subOrgIds: null },
        { groupName: 'treasury-viewers', role: 'viewer', subOrgIds: null },
      ],
    });
    expect(saved.enabled).toBe(true);
    return true;
  });

let n = 0;
function person(provider: TestOidcProvider, groups: string[]) {
  n += 1;
  const id = `person-${n}`;
  const email = `person-${n}@acme.test`;
  provider.accounts.set(id, { email, name: `Person ${n}`, groups });
  return { id, email };
}

/** What a browser does: start at the console, sign in at the provider, come back. */
async function walk(
  t: TestApp,
  login: string,
  tamper: {
    pending?: (pending: Record<string, string>) => void;
    callback?: (url: URL) => void;
  } = {},
) {
  const console = new CookieJar();
  const start = await t.anonymous('/auth/sso/start?redirect=/approvals');
  expect(start.status).toBe(302);
  console.take(start);
  const pendingValue = console.get('cc_sso');
  if (pendingValue && tamper.pending) {
    const pending = JSON.parse(Buffer.from(pendingValue, 'base64url').toString()) as Record<
      string,
      string
    >;
    tamper.pending(pending);
    console.set('cc_sso', Buffer.from(JSON.stringify(pending)).toString('base64url'));
  }
  const idp = new CookieJar();
  let next = start.headers.get('location') ?? '';
  let method = 'GET';
  let body: string | undefined;
  const trail: string[] = [];
  // Follow the provider's redirects and answer its login page, until it sends us back.
  for (let hops = 0; hops < 10 && !next.startsWith(CALLBACK); hops += 1) {
    const answer = await fetch(next, {
      method,
      redirect: 'manual',
      headers: {
        cookie: idp.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    idp.take(answer);
    trail.push(
      `${method} ${next} ${answer.status}${answer.status >= 400 ? ` ${await answer.clone().text()}` : ''}`,
    );
    const location = answer.headers.get('location');
    if (location) {
      next = new URL(location, next).href;
      method = 'GET';
      body = undefined;
    } else {
      expect(answer.status, await answer.text()).toBe(200);
      method = 'POST';
      body = new URLSearchParams({ login }).toString();
    }
  }
  expect(next.startsWith(CALLBACK), `the walk ended at ${next}: ${trail.join(' → ')}`).toBe(true);
  const url = new URL(next);
  tamper.callback?.(url);
  const back = await t.anonymous(`${url.pathname}${url.search}`, {
    headers: { cookie: console.header() },
  });
  console.take(back);
  return { back, session: console.get(SESSION_COOKIE) };
}

async function lastLogin(t: TestApp) {
  const [row] = await t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'auth.login'))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

function authOptions(t: TestApp): AuthOptions {
  return { db: t.db, clock: t.authClock, trustProxy: false, demoAccounts: true };
}

async function sessionOf(t: TestApp, cookie: string | undefined) {
  return t.anonymous('/auth/session', { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
}

async function lastCheckEnding(t: TestApp, email: string) {
  const rows = await t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'sso.session_check'))
    .orderBy(desc(auditLog.id));
  return rows.find((row) => row.summary.includes(email));
}

/** The test's access tokens live 600 s at the provider: both clocks pass that. */
function pastAccessTokenLife(t: TestApp, provider: TestOidcProvider) {
  t.clock.advance(601_000);
  provider.expireAccessTokens();
}

describe('single sign-on', () => {
  ssoTest(
    'a member of a mapped group is provisioned with its role and signed in',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['treasury-approvers', 'unrelated']);
      const { back, session } = await walk(t, id);
      expect(back.status).toBe(200);
      expect(await back.text()).toContain('url=/approvals');
      const me = await sessionOf(t, session);
      expect(me.status).toBe(200);
      const body = (await me.json()) as { member: { email: string; role: string } };
      expect(body.member).toMatchObject({ email, role: 'approver' });
      const [row] = await t.db.select().from(staff).where(eq(staff.email, email));
      expect(row).toMatchObject({ provisionedBy: 'oidc', idpSubject: `${provider.issuer} ${id}` });
      expect((await lastLogin(t))?.outcome).toBe('success');
    },
  );

  ssoTest('an existing member is linked by verified email', async ({ t, provider, configured }) => {
    expect(configured).toBe(true);
    const local = await t.signIn('viewer');
    provider.accounts.set('linked', {
      email: local.member.email,
      name: 'Linked',
      groups: ['treasury-viewers'],
    });
    const { session } = await walk(t, 'linked');
    const body = (await (await sessionOf(t, session)).json()) as { member: { id: string } };
    expect(body.member.id).toBe(local.member.id);
  });

  ssoTest('a state other than the one given is refused', async ({ t, provider, configured }) => {
    expect(configured).toBe(true);
    const { id } = person(provider, ['treasury-viewers']);
    const { back, session } = await walk(t, id, {
      callback: (url) => url.searchParams.set('state', 'someone-elses-state'),
    });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/login?sso=state');
    expect(session).toBeUndefined();
    expect(await lastLogin(t)).toMatchObject({ outcome: 'denied' });
  });

  ssoTest('an ID token for another nonce is refused', async ({ t, provider, configured }) => {
    expect(configured).toBe(true);
    const { id } = person(provider, ['treasury-viewers']);
    const { back, session } = await walk(t, id, {
      pending: (pending) => {
        pending['nonce'] = 'not-the-nonce-the-provider-was-sent';
      },
    });
    expect(back.headers.get('location')).toBe('/login?sso=provider');
    expect(session).toBeUndefined();
    expect((await lastLogin(t))?.summary).toMatch(/nonce/);
  });

  ssoTest(
    'a code exchanged without its PKCE verifier is refused',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id } = person(provider, ['treasury-viewers']);
      const { back, session } = await walk(t, id, {
        pending: (pending) => {
          pending['verifier'] = 'a'.repeat(43);
        },
      });
      expect(back.headers.get('location')).toBe('/login?sso=provider');
      expect(session).toBeUndefined();
    },
  );

  ssoTest(
    'a person in no mapped group is refused and not provisioned',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['marketing']);
      const { back, session } = await walk(t, id);
      expect(back.headers.get('location')).toBe('/login?sso=unmapped');
      expect(session).toBeUndefined();
      expect(await t.db.select().from(staff).where(eq(staff.email, email))).toEqual([]);
      expect((await lastLogin(t))?.summary).toMatch(/no mapped group \(marketing\)/);
    },
  );

  ssoTest('a member disabled in the console is refused', async ({ t, provider, configured }) => {
    expect(configured).toBe(true);
    const { id, email } = person(provider, ['treasury-viewers']);
    await walk(t, id);
    await t.db.update(staff).set({ disabled: true }).where(eq(staff.email, email));
    const { back, session } = await walk(t, id);
    expect(back.headers.get('location')).toBe('/login?sso=disabled');
    expect(session).toBeUndefined();
  });

  ssoTest(
    'a person disabled at the provider cannot sign in, and their session ends at the next check',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['treasury-viewers']);
      const { session } = await walk(t, id);
      expect((await sessionOf(t, session)).status).toBe(200);

      const person2 = provider.accounts.get(id);
      if (person2) person2.disabled = true;
      // Not due yet: the session was checked when it began.
      expect((await checkSsoSessions(authOptions(t))).ended).toBe(0);
      t.clock.advance(5 * 60_000);
      const round = await checkSsoSessions(authOptions(t));
      expect(round.ended).toBeGreaterThanOrEqual(1);
      expect((await sessionOf(t, session)).status).toBe(401);
      const [row] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'sso.session_check')))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(row?.summary).toContain(email);

      // And the provider itself refuses the next sign-in: the console never sees it come back.
      const start = await t.anonymous('/auth/sso/start');
      const login = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
      expect(login.status).toBe(303);
    },
  );

  ssoTest(
    'a later sign-in that brings no refresh token outlives its access token on the member’s earlier one, and ends once they are disabled at the provider',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['treasury-viewers']);
      const first = await walk(t, id);
      // The provider has their consent now: this sign-in brings an access token only.
      const second = await walk(t, id);
      expect((await sessionOf(t, second.session)).status).toBe(200);

      pastAccessTokenLife(t, provider);
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, first.session)).status).toBe(200);
      expect((await sessionOf(t, second.session)).status).toBe(200);
      // The provider rotated the token at that check: the next one presents the new one.
      pastAccessTokenLife(t, provider);
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, first.session)).status).toBe(200);
      expect((await sessionOf(t, second.session)).status).toBe(200);
      expect(await lastCheckEnding(t, email)).toBeUndefined();

      const account = provider.accounts.get(id);
      if (account) account.disabled = true;
      t.clock.advance(5 * 60_000);
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, first.session)).status).toBe(401);
      expect((await sessionOf(t, second.session)).status).toBe(401);
      expect((await lastCheckEnding(t, email))?.summary).toContain('the provider refused');
    },
  );

  ssoTest(
    'the provider refusing a member’s refresh token ends all their sessions at once, not yet due ones too',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['treasury-viewers']);
      const first = await walk(t, id);
      t.clock.advance(3 * 60_000);
      const second = await walk(t, id);
      t.clock.advance(3 * 60_000);
      const account = provider.accounts.get(id);
      if (account) account.disabled = true;
      // Only the first is due for its check; the refusal is the member's, so both end.
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, first.session)).status).toBe(401);
      expect((await sessionOf(t, second.session)).status).toBe(401);
      expect((await lastCheckEnding(t, email))?.summary).toMatch(
        /^2 sessions of .* ended: the provider refused/,
      );
    },
  );

  ssoTest(
    'a session with no refresh token anywhere is checked with its access token, and ends at its expiry saying why',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const { id, email } = person(provider, ['treasury-viewers']);
      // They consented before the console kept refresh tokens: the provider issues none now.
      provider.consented.add(id);
      const { session } = await walk(t, id);

      t.clock.advance(5 * 60_000);
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, session)).status).toBe(200);

      t.clock.advance(5 * 60_000);
      pastAccessTokenLife(t, provider);
      await checkSsoSessions(authOptions(t));
      expect((await sessionOf(t, session)).status).toBe(401);
      const ending = (await lastCheckEnding(t, email))?.summary;
      expect(ending).toContain('access token expired');
      expect(ending).toContain('no refresh token');
    },
  );

  ssoTest(
    'passwords off: only the break-glass admin signs in with one',
    async ({ t, provider, configured }) => {
      expect(configured).toBe(true);
      const current = (await (await t.admin.request('/api/console/sso/')).json()) as Record<
        string,
        unknown
      >;
      expect(current['clientSecretSet']).toBe(true);
      expect(JSON.stringify(current)).not.toContain(provider.clientSecret);
      const off = await t.admin.request('/api/console/sso/', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          enabled: true,
          label: 'Acme',
          issuer: provider.issuer,
          clientId: provider.clientId,
          scopes: TEST_SSO_SCOPES,
          passwordSignIn: 'break_glass',
          breakGlassEmail: t.admin.member.email,
          groups: current['groups'],
        }),
      });
      expect(off.status).toBe(200);
      const options = (await (await t.anonymous('/auth/sso')).json()) as Record<string, unknown>;
      expect(options).toMatchObject({ passwordSignIn: 'break_glass', sso: { label: 'Acme' } });
      const password = 'a long enough passphrase';
      const passwordHash = await hashPassword(password, { N: 1024, r: 8, p: 1 });
      const login = (email: string) =>
        t.anonymous('/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
          body: JSON.stringify({ email, password }),
        });
      const viewer = await createStaff(
        t.db,
        { email: 'local-viewer@acme.test', name: 'Local viewer', role: 'viewer', password },
        { now: t.clock.now(), passwordHash },
      );
      const refused = await login(viewer.email);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'PASSWORD_SIGN_IN_OFF' });
      await t.db.update(staff).set({ passwordHash }).where(eq(staff.id, t.admin.member.id));
      expect((await login(t.admin.member.email)).status).toBe(200);
      const [audit] = await t.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'sso.update'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(audit?.summary).toContain('passwordSignIn "everyone" → "break_glass"');
      expect(audit?.summary).not.toContain(provider.clientSecret);
    },
  );
});
