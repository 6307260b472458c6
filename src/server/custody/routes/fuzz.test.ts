import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { API_PREFIX, routes } from '#contract/paths.ts';
import { createTestApiUser, signedInit } from '../../test/api-client.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * Hostile input to every endpoint of the console server — the custody API
 * (every pattern in `routes`), /auth and /api/console — as a signed-in admin,
 * so that sign-in does not hide the validation behind it, and anonymously.
 * Whatever arrives, the answer is a 2xx or a 4xx, and a 4xx is a JSON
 * `{message, code}`: never a 5xx.
 */

type Method = 'GET' | 'POST' | 'PATCH';
type RouteName = keyof typeof routes;

// A Record over every route name: a new route in the contract fails to compile here until it is fuzzed.
const CUSTODY_METHODS: Record<RouteName, Method[]> = {
  bankAccounts: ['GET', 'POST'],
  bankAccount: ['GET'],
  transactions: ['GET', 'POST'],
  transaction: ['GET'],
  replaceTransaction: ['POST'],
  estimateFee: ['POST'],
  approvalMessage: ['GET'],
  approvalAction: ['POST'],
  vaults: ['GET'],
  vault: ['GET'],
  vaultBalances: ['GET'],
  contacts: ['GET'],
  assets: ['GET'],
  supportedChains: ['GET'],
  subOrgs: ['GET'],
};

interface Endpoint {
  method: Method;
  /** A Hono pattern; `:name` segments are filled with fuzzed ids. */
  pattern: string;
}

const CUSTODY: Endpoint[] = Object.entries(CUSTODY_METHODS).flatMap(([name, methods]) =>
  methods.map((method) => ({ method, pattern: `${API_PREFIX}${routes[name as RouteName]}` })),
);
// Logout is fuzzed anonymously only: as the admin it would end the session the other cases use.
const CONSOLE: Endpoint[] = [
  { method: 'POST', pattern: '/auth/login' },
  { method: 'POST', pattern: '/auth/login/second-factor' },
  { method: 'GET', pattern: '/auth/session' },
  { method: 'GET', pattern: '/auth/demo-accounts' },
  { method: 'GET', pattern: '/api/console/staff/' },
  { method: 'POST', pattern: '/api/console/staff/' },
  { method: 'PATCH', pattern: '/api/console/staff/:staffId/' },
  { method: 'GET', pattern: '/api/console/audit/' },
  { method: 'GET', pattern: '/api/console/approvals/' },
  { method: 'POST', pattern: '/api/console/bank_accounts/:bankAccountId/reveal/' },
  { method: 'GET', pattern: '/api/console/bank_accounts/:bankAccountId/history/' },
  { method: 'GET', pattern: '/api/console/account/second-factor/' },
  { method: 'POST', pattern: '/api/console/account/second-factor/enrolment/' },
  { method: 'POST', pattern: '/api/console/account/second-factor/enrolment/confirm/' },
  { method: 'POST', pattern: '/api/console/account/recovery-codes/' },
  { method: 'POST', pattern: '/api/console/account/password/' },
  { method: 'PATCH', pattern: '/api/console/account/display/' },
];
const ALL = [...CUSTODY, ...CONSOLE];
const WITH_BODY = ALL.filter((e) => e.method !== 'GET');

/** Real ids from the seed, so some fuzzed requests get past "not found". */
interface RealIds {
  vault: string;
  tronVault: string;
  transaction: string;
  bankAccount: string;
  /** Another member, so a fuzzed PATCH never narrows the admin the other cases act as. */
  staff: string;
}

async function realIds(t: TestApp): Promise<RealIds> {
  const first = async (url: string) => {
    const { body } = await t.getJson(url);
    return (body as { results: Array<{ id: string; wallets?: Array<{ blockchain: string }> }> })
      .results;
  };
  const vaults = await first(`${API_PREFIX}/vaults/?limit=100`);
  return {
    vault: vaults[0]?.id ?? '',
    tronVault:
      vaults.find((v) => v.wallets?.some((w) => w.blockchain === 'TRON'))?.id ??
      vaults[0]?.id ??
      '',
    transaction: (await first(`${API_PREFIX}/transactions/?limit=1`))[0]?.id ?? '',
    bankAccount: (await first(`${API_PREFIX}/bank_accounts/?limit=1`))[0]?.id ?? '',
    staff: (await t.signIn('viewer')).member.id,
  };
}

const appTest = appTestWith({ seed: true }).extend('real', { scope: 'file' }, ({ t }) =>
  realIds(t),
);

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

/** encodeURIComponent, except that a lone surrogate becomes an invalid UTF-8 escape instead of a throw. */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const HUGE = 'x'.repeat(300_000);
const POLLUTION = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"category":"TRANSFER","__proto__":{"category":"STAKE"},"prototype":1}',
  '{"source":{"__proto__":{"type":"VAULT","id":"x"}}}',
];

const weirdText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\uD800', '😀'.repeat(50), 'null', '-1', '1e309', HUGE),
);
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  weirdText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(weirdText, { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);
const FIELDS =
  'category source destination amount asset blockChain externalId memo feePayer gasParams vaultId data resourceType transactionId action signature reason paymentMethod accountNumber routingNumber country email password name role subOrgIds disabled dataSignatureHex'.split(
    ' ',
  );
const knownFieldsBody = fc.dictionary(fc.constantFrom(...FIELDS), weirdValue, { maxKeys: 6 });

/** A raw request body: not JSON, JSON of the wrong shape, or the right fields with wrong values. */
const rawBody: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{', '{"a":', '[1,', 'undefined', "{'a':1}", '\u0000', 'null', 'true', '[]'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  knownFieldsBody.map((v) => JSON.stringify(v)),
  fc.constantFrom(...POLLUTION),
  fc.constantFrom(deepArray(5_000), deepObject(5_000), deepArray(100_000)),
  fc.constant(`{"memo":"${HUGE}","externalId":"${HUGE}"}`),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'garbage/',
  undefined,
);

/** Path ids: printable, percent-encoded oddities, invalid escapes, very long. */
const pathId: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30, unit: 'binary' }).map(enc),
  fc.constantFrom(
    '%00',
    '%ZZ',
    '%E0%A4%A',
    '..',
    '%2F..%2F',
    '%20',
    '%F0%9F%98%80',
    'a'.repeat(5_000),
  ),
  fc.constant('REAL'),
);
const queryValue: fc.Arbitrary<string> = fc.oneof(
  weirdText.map(enc),
  fc.constantFrom('-1', '0', '101', '1e2', '5.0', '%20%205', '%D9%A3', '99999999999999999999'),
  fc.constantFrom('%00', '%ZZ', '%E0%A4%A', '1900-01-01T00:00:00Z', '0000-01-01T00:00:00Z'),
  fc.constantFrom('eyJrIjoidHJhbnNhY3Rpb25zIn0.AAAA', 'a.b.c', '..', 'x'.repeat(10_000)),
);
const QUERY_KEYS =
  'limit cursor status category vaultId asset externalId subOrgId createdAtGte createdAtLte paymentMethod country vaultName name entityId action actorId outcome from to'.split(
    ' ',
  );
const queryString = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS, 'limit[]', 'cursor[x]'), queryValue), {
    maxLength: 4,
  })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

function fill(real: RealIds, pattern: string, id: string): string {
  const ids: Record<string, string> = {
    vaultId: real.vault,
    transactionId: real.transaction,
    bankAccountId: real.bankAccount,
    staffId: real.staff,
  };
  return pattern.replace(/:(\w+)/g, (_m, name: string) =>
    id === 'REAL' ? encodeURIComponent(ids[name] ?? 'none') : id,
  );
}

// ---------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  headers?: Record<string, string | undefined>;
  body?: string;
}

function describeRequest(r: Sent): string {
  const body =
    r.body && r.body.length > 200 ? `${r.body.slice(0, 200)}… (${r.body.length} chars)` : r.body;
  return `${r.method} ${r.url.slice(0, 300)} ${JSON.stringify(r.headers ?? {})} ${body ?? ''}`;
}

/** Sends `r` (as the admin unless `anonymous`) and checks the answer's status and shape. */
async function expectClean(
  t: TestApp,
  r: Sent,
  options: { anonymous?: boolean; status?: number } = {},
) {
  const headers = Object.fromEntries(
    Object.entries(r.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const init: RequestInit = {
    method: r.method,
    headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
  };
  const res = await (options.anonymous ? t.anonymous : t.app.request)(r.url, init);
  const text = await res.text();
  const label = `${describeRequest(r)}\n→ ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, label).toBeLessThan(500);
  if (options.status) expect(res.status, label).toBe(options.status);
  if (res.status < 400 || r.method === 'HEAD') return;
  expect(res.headers.get('content-type') ?? '', label).toMatch(/application\/json/);
  const parsed = ApiErrorBody.safeParse(JSON.parse(text));
  expect(parsed.success, label).toBe(true);
  expect(parsed.data?.code, label).toMatch(/^[A-Z_]+$/);
}

const RUNS = { numRuns: 120, interruptAfterTimeLimit: 6_000, markInterruptAsFailure: false };

describe('fuzz: every endpoint answers bad input with a 4xx {message, code}, never a 5xx', () => {
  appTest(
    'malformed bodies and content types on every endpoint that takes a body',
    async ({ t, real }) => {
      const endpoint = fc.constantFrom(...WITH_BODY);
      await fc.assert(
        fc.asyncProperty(endpoint, pathId, rawBody, contentType, async (e, id, body, type) => {
          await expectClean(t, {
            method: e.method,
            url: fill(real, e.pattern, id),
            headers: { 'content-type': type },
            body,
          });
        }),
        RUNS,
      );
      // Nothing a body said reached Object.prototype.
      expect(Object.prototype).not.toHaveProperty('polluted');
    },
  );

  appTest('malformed ids, limits, cursors and filters on every GET', async ({ t, real }) => {
    const endpoint = fc.constantFrom(...ALL.filter((e) => e.method === 'GET'));
    await fc.assert(
      fc.asyncProperty(endpoint, pathId, queryString, async (e, id, query) => {
        await expectClean(t, { method: 'GET', url: `${fill(real, e.pattern, id)}${query}` });
      }),
      RUNS,
    );
  });

  appTest('wrong methods on every path', async ({ t, real }) => {
    const endpoint = fc.constantFrom(...ALL);
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
    await fc.assert(
      fc.asyncProperty(endpoint, method, pathId, async (e, m, id) => {
        await expectClean(t, {
          method: m,
          url: fill(real, e.pattern, id),
          ...(m === 'GET' || m === 'HEAD' ? {} : { body: '{}' }),
          headers: { 'content-type': 'application/json' },
        });
      }),
      RUNS,
    );
  });

  appTest(
    'refuses anonymous callers of /api with 401 JSON, whatever they send',
    async ({ t, real }) => {
      const endpoint = fc.constantFrom(...ALL.filter((e) => e.pattern.startsWith('/api/')));
      const apiKey = fc.option(weirdText.filter((s) => /^[ -~]*$/.test(s)));
      await fc.assert(
        fc.asyncProperty(endpoint, pathId, rawBody, apiKey, async (e, id, body, key) => {
          const url = fill(real, e.pattern, id);
          await expectClean(
            t,
            {
              method: e.method,
              url,
              headers: {
                'content-type': 'application/json',
                origin: 'http://localhost',
                ...(key === null ? {} : { 'api-key': key, authorization: 'Bearer a.b.c' }),
              },
              ...(e.method === 'GET' ? {} : { body }),
            },
            { anonymous: true, status: 401 },
          );
        }),
        { ...RUNS, numRuns: 60 },
      );
    },
  );

  appTest(
    'anonymous /auth calls: sign-in and sign-out with junk, cookies that are not sessions',
    async ({ t }) => {
      const cookie = fc.option(weirdText.map((s) => `cc_session=${enc(s)}`));
      const origin = fc.constantFrom('http://localhost', 'https://evil.example', 'null', undefined);
      const endpoint = fc.constantFrom(
        '/auth/login',
        '/auth/login/second-factor',
        '/auth/logout',
        '/auth/session',
      );
      await fc.assert(
        fc.asyncProperty(endpoint, rawBody, cookie, origin, async (path, body, c, o) => {
          await expectClean(
            t,
            {
              method: path === '/auth/session' ? 'GET' : 'POST',
              url: path,
              headers: { 'content-type': 'application/json', cookie: c ?? undefined, origin: o },
              ...(path === '/auth/session' ? {} : { body }),
            },
            { anonymous: true },
          );
        }),
        { ...RUNS, numRuns: 60 },
      );
    },
  );

  appTest('deep nesting and huge values inside otherwise valid requests', async ({ t, real }) => {
    const transfer = {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: real.vault },
      destination: { type: 'VAULT', id: real.tronVault },
      amount: '1',
      asset: 'TRX',
      blockChain: 'TRON',
    };
    // JSON.stringify cannot write 20,000 levels either: the deep part goes in as text.
    const DEEP = '"__DEEP__"';
    const bodies: Array<[string, unknown]> = [
      [routes.transactions, { ...transfer, memo: HUGE }],
      [routes.transactions, { ...transfer, externalId: HUGE }],
      [routes.transactions, { ...transfer, amount: `1.${'0'.repeat(100_000)}1` }],
      [routes.transactions, { ...transfer, amount: `${'9'.repeat(100_000)}` }],
      [routes.estimateFee, { ...transfer, source: '__DEEP__' }],
      [routes.bankAccounts, { paymentMethod: 'SEPA', accountName: '__DEEP__' }],
      [routes.replaceTransaction, { transactionId: '__DEEP__' }],
      [routes.transactions, { ...transfer, gasParams: '__DEEP__', feePayer: '__DEEP__' }],
    ];
    for (const [route, body] of bodies) {
      await expectClean(t, {
        method: 'POST',
        url: `${API_PREFIX}${route}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body).replaceAll(DEEP, deepObject(20_000)),
      });
    }
  });

  // 5xx this file found, each fixed and kept as a regression test.
  describe('once-5xx requests stay 4xx', () => {
    appTest(
      'an approvalId that is not a valid percent-escape (audit.ts decodeURIComponent)',
      async ({ t }) => {
        await expectClean(t, {
          method: 'POST',
          url: `${API_PREFIX}/change_requests/approvals/%ZZ/action/`,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
      },
    );

    // Fixed: request bodies may nest at most MAX_BODY_DEPTH levels (http/json-body.ts), a 400 beyond.
    appTest(
      'a contract call whose data.params nest 20,000 deep (jsonb JSON.stringify)',
      async ({ t, real }) => {
        const body = JSON.stringify({
          category: 'CONTRACT_CALL',
          vaultId: real.tronVault,
          blockChain: 'TRON',
          data: { method: 'transfer', params: { nested: 0 } },
        }).replace('"nested":0', `"nested":${deepObject(20_000)}`);
        await expectClean(t, {
          method: 'POST',
          url: `${API_PREFIX}${routes.transactions}`,
          headers: { 'content-type': 'application/json' },
          body,
        });
      },
    );

    const apiClientBodies = {
      'the body hash (canonicalJson)': `{"a":${deepObject(20_000)}}`,
      'dataSignatureHex (canonicalJson)': `{"dataSignatureHex":"abcd","a":${deepObject(20_000)}}`,
    };
    for (const [what, body] of Object.entries(apiClientBodies)) {
      appTest(`an API client's body nested 20,000 deep: ${what}`, async ({ t }) => {
        const user = await createTestApiUser(t, 'fuzz client');
        const url = `${API_PREFIX}${routes.estimateFee}`;
        // A token signed for `{}`: the server hashes the body it received to compare.
        const init = signedInit(user, 'POST', url, {});
        await expectClean(t, {
          method: 'POST',
          url,
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          body,
        });
      });
    }
  });
});
