import * as client from 'openid-client';
import type { SsoSettingsRow } from '../sso.store.ts';

/**
 * The OpenID provider as openid-client sees it: its discovered configuration,
 * kept per issuer, client and secret (a settings change makes a new one).
 * Plain http is accepted only for an issuer on this machine (a provider the
 * tests start on 127.0.0.1); a real provider is https.
 */

const configurations = new Map<string, Promise<client.Configuration>>();

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function providerConfiguration(settings: SsoSettingsRow): Promise<client.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
  let found = configurations.get(key);
  if (!found) {
    const issuer = new URL(settings.issuer);
    found = client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      client.ClientSecretPost(settings.clientSecret),
      issuer.protocol === 'http:' && isLoopback(issuer)
        ? { execute: [client.allowInsecureRequests], timeout: 10 }
        : { timeout: 10 },
    );
    // A failed discovery is tried again at the next sign-in, not kept.
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

/** What a sign-in remembers between leaving for the provider and coming back (the cookie). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Where the member goes once signed in: a path on this console. */
  returnTo: string;
}

export async function authorizationUrl(
  settings: SsoSettingsRow,
  redirectUri: string,
  returnTo: string,
): Promise<{ url: URL; pending: PendingSignIn }> {
  const config = await providerConfiguration(settings);
  const pending: PendingSignIn = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings.scopes,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    // Google issues a refresh token only when asked this way; others ignore it.
    access_type: 'offline',
  });
  return { url, pending };
}

export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  groups: string[];
  refreshToken: string | null;
  accessToken: string;
  /** The access token's life in seconds as the provider said (`expires_in`), if it did. */
  accessExpiresIn: number | null;
}

function stringList(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return null;
}

/**
 * The code exchanged, with state, nonce and PKCE checked by openid-client;
 * the claims read from the ID token, and from userinfo for those it lacks.
 * Throws openid-client's errors: the caller tells the member it failed.
 */
export async function completeSignIn(
  settings: SsoSettingsRow,
  callbackUrl: URL,
  pending: PendingSignIn,
): Promise<ProviderIdentity> {
  const config = await providerConfiguration(settings);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the provider sent no ID token');
  let claims: Record<string, unknown> = { ...idClaims };
  if (claims['email'] === undefined || claims[settings.groupsClaim] === undefined) {
    const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    claims = { ...info, ...claims };
  }
  const email = typeof claims['email'] === 'string' ? claims['email'].trim().toLowerCase() : null;
  return {
    subject: `${settings.issuer} ${idClaims.sub}`,
    email,
    emailVerified: claims['email_verified'] === true,
    name: typeof claims['name'] === 'string' ? claims['name'] : null,
    groups: stringList(claims[settings.groupsClaim]) ?? [],
    refreshToken: tokens.refresh_token ?? null,
    accessToken: tokens.access_token,
    accessExpiresIn: tokens.expiresIn() ?? null,
  };
}

export interface CheckTokens {
  refreshToken: string | null;
  accessToken: string | null;
  /** Null: the provider did not say. */
  accessExpiresAt: Date | null;
}

export type StillAllowed =
  ({ ok: true } & CheckTokens) | { ok: false; reason: string } | { ok: 'unknown'; reason: string };

/**
 * Whether the provider still lets this member in: a refresh-token grant (the
 * provider refuses it for a member removed or disabled there), else userinfo
 * with the access token while it lives. A refusal by the provider is a no; so
 * is an access token past its expiry with no refresh token: the provider would
 * refuse it whether or not the member may still sign in there, and nothing else
 * can ask, so the session cannot be vouched for any longer. A provider that
 * cannot be reached is neither (the session is checked again next time).
 */
export async function checkWithProvider(
  settings: SsoSettingsRow,
  tokens: CheckTokens,
  now: Date,
): Promise<StillAllowed> {
  if (!tokens.refreshToken) {
    if (!tokens.accessToken) return { ok: false, reason: 'no token to check with' };
    if (tokens.accessExpiresAt && tokens.accessExpiresAt <= now)
      return {
        ok: false,
        reason:
          'its access token expired and the provider issued no refresh token to check with; the member signs in again',
      };
  }
  try {
    const config = await providerConfiguration(settings);
    if (tokens.refreshToken) {
      const fresh = await client.refreshTokenGrant(config, tokens.refreshToken);
      const life = fresh.expiresIn();
      return {
        ok: true,
        refreshToken: fresh.refresh_token ?? tokens.refreshToken,
        accessToken: fresh.access_token,
        accessExpiresAt: life === undefined ? null : new Date(now.getTime() + life * 1000),
      };
    }
    await client.fetchUserInfo(config, tokens.accessToken ?? '', client.skipSubjectCheck);
    return { ok: true, ...tokens };
  } catch (error) {
    if (
      error instanceof client.ResponseBodyError ||
      error instanceof client.WWWAuthenticateChallengeError
    )
      return { ok: false, reason: `the provider refused: ${error.message}` };
    return {
      ok: 'unknown',
      reason: error instanceof Error ? error.message : 'the provider could not be reached',
    };
  }
}
