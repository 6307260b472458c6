import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload } from 'oidc-provider';

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 for the single sign-on
 * tests: a login page of its own (a username, no password: the tests are the
 * only users), consent taken as given, refresh tokens issued, the email and
 * groups claims in the ID token. Its people are the test's: `accounts`,
 * changed as the test goes (disabled ones are unknown to the provider, as a
 * removed person is). `refreshTokens: 'first-grant'` behaves as Google does:
 * a refresh token at a person's first consent only (`consented` lists who has
 * given it), none at later sign-ins.
 */

export interface TestPerson {
  email: string;
  name: string;
  groups: string[];
  emailVerified?: boolean;
  disabled?: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestPerson>;
  /** People who have consented already: with `refreshTokens: 'first-grant'`, they get no refresh token. */
  consented: Set<string>;
  /** The provider's clock passing every access token's expiry: each one is refused from then on. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

/** oidc-provider's storage, in memory, with its access tokens reachable by the test. */
function memoryAdapter(store: Map<string, AdapterPayload>) {
  const uids = new Map<string, string>();
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    return {
      upsert: (id, payload) => {
        store.set(key(id), payload);
        if (payload.uid) uids.set(payload.uid, id);
        return Promise.resolve();
      },
      find: (id) => Promise.resolve(store.get(key(id))),
      findByUid: (uid) => {
        const id = uids.get(uid);
        return Promise.resolve(id === undefined ? undefined : store.get(key(id)));
      },
      findByUserCode: () => Promise.resolve(undefined),
      consume: (id) => {
        const payload = store.get(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
        return Promise.resolve();
      },
      destroy: (id) => {
        store.delete(key(id));
        return Promise.resolve();
      },
      revokeByGrantId: (grantId) => {
        for (const [at, payload] of store) if (payload.grantId === grantId) store.delete(at);
        return Promise.resolve();
      },
    };
  };
}

export const TEST_SSO_SCOPES = 'openid email profile groups offline_access';

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="/interaction/${uid}">
<label for="login">Username</label> <input id="login" name="login" autocomplete="username" required>
<button type="submit">Sign in at the provider</button></form></main></body></html>`;
}

export async function startTestOidcProvider(options: {
  redirectUris: string[];
  accounts?: Record<string, TestPerson>;
  /** `every-grant` (the default, as Okta with offline_access) or `first-grant` (as Google). */
  refreshTokens?: 'every-grant' | 'first-grant';
  /** A new refresh token at each use, the used one refused from then on (and its grant revoked). */
  rotateRefreshTokens?: boolean;
}): Promise<TestOidcProvider> {
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const consented = new Set<string>();
  const store = new Map<string, AdapterPayload>();
  const clientId = 'custody-console';
  const clientSecret = 'a-client-secret-for-the-tests-only';
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    cookies: { keys: ['a-cookie-key-for-the-tests-only'] },
    // Lifetimes said outright (the defaults are announced on every start).
    ttl: {
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Grant: 3600,
      Session: 3600,
      RefreshToken: 86_400,
    },
    pkce: { required: () => true },
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'profile', 'groups', 'offline_access'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    adapter: memoryAdapter(store),
    issueRefreshToken: (_ctx, client, code) => {
      if (!client.grantTypeAllowed('refresh_token')) return false;
      const account = code.accountId ?? '';
      const first = !consented.has(account);
      consented.add(account);
      return options.refreshTokens !== 'first-grant' || first;
    },
    rotateRefreshToken: options.rotateRefreshTokens ?? false,
    // Consent is the test's to give: every client is granted what it asks.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope(TEST_SSO_SCOPES);
      await grant.save();
      return grant;
    },
    findAccount: (_ctx, id) => {
      const person = accounts.get(id);
      if (!person || person.disabled) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: person.email,
          email_verified: person.emailVerified ?? true,
          name: person.name,
          groups: person.groups,
        }),
      };
    },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (!match) {
      void handle(req, res);
      return;
    }
    const uid = match[1] ?? '';
    void (async () => {
      try {
        await provider.interactionDetails(req, res);
        if (req.method !== 'POST') {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(loginPage(uid));
          return;
        }
        let raw = '';
        for await (const chunk of req) raw += String(chunk);
        const login = new URLSearchParams(raw).get('login') ?? '';
        const person = accounts.get(login);
        if (!person || person.disabled) {
          res.statusCode = 401;
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(loginPage(uid, 'That account cannot sign in here.'));
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: login } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.statusCode = 400;
        res.end(error instanceof Error ? error.message : 'interaction failed');
      }
    })();
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    consented,
    expireAccessTokens: () => {
      // Well past it: the provider allows its clock tolerance (15 s) either side.
      const past = Math.floor(Date.now() / 1000) - 3600;
      for (const [at, payload] of store) if (at.startsWith('AccessToken:')) payload.exp = past;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Cookies as a browser keeps them for one site: enough to walk the provider's pages with fetch. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === '')
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}
