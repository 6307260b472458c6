import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { createLogger } from './logger.ts';
import { appTestWith } from './test/app-test.ts';
import { capturedLog } from './test/captured-log.ts';
import type { TestApp } from './test/test-app.ts';

/**
 * No secret reaches a log line, even when a request carries text the
 * database cannot store: every create is sent NUL bytes and lone surrogates
 * next to full account numbers, routing numbers and passwords, and the whole
 * log (debug level and up) is searched for them afterwards.
 */

/** Every line the app logged, at every level, from its first request on. */
const log = capturedLog();
const appTest = appTestWith({ logger: createLogger('trace', log.stream) });

const ACCOUNT = '987654321012';
const IBAN = 'DE89370400440532013000';
const ROUTING = '021000021';
const BIC = 'DEUTDEFF500';
const PASSWORD = 'correct horse battery staple';

async function post(t: TestApp, url: string, body: unknown) {
  const res = await t.admin.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function secretsIn(t: TestApp, text: string): string[] {
  const secrets = [
    ACCOUNT,
    IBAN,
    ROUTING,
    BIC,
    PASSWORD,
    t.admin.cookie.split('=')[1] ?? 'no-cookie',
    t.admin.csrfToken,
    'scrypt$',
  ];
  return secrets.filter((s) => text.includes(s));
}

const bankAccount = (over: object) => ({
  paymentMethod: 'US_ACH',
  accountName: 'Holder',
  accountNumber: ACCOUNT,
  routingNumber: ROUTING,
  bankName: 'Bank',
  country: 'US',
  ...over,
});

const transfer = (over: object) => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: 'v-1' },
  destination: { type: 'CONTACT', id: 'c-1' },
  amount: '1',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  ...over,
});

const UNSTORABLE = ['bad\u0000text', 'bad\ud800text'];

describe('unstorable text next to secrets', () => {
  for (const bad of UNSTORABLE) {
    const label = JSON.stringify(bad);

    appTest(
      `bank account create with ${label}: 400 naming the field, nothing secret logged`,
      async ({ t }) => {
        for (const [field, body] of [
          ['accountName', bankAccount({ accountName: bad })],
          ['bankName', bankAccount({ bankName: bad })],
          [
            'accountName',
            bankAccount({
              paymentMethod: 'SWIFT',
              accountNumber: IBAN,
              routingNumber: BIC,
              country: 'DE',
              streetLine: 'Main 1',
              city: 'Berlin',
              postalCode: '10115',
              accountName: bad,
            }),
          ],
        ] as const) {
          const res = await post(t, paths.bankAccounts(), body);
          expect(res.status, JSON.stringify(res.body)).toBe(400);
          expect(res.body.message).toContain(field);
          expect(res.body.fields).toContainEqual(expect.objectContaining({ field }));
        }
      },
    );

    appTest(`transaction create with ${label}: 400 naming the field`, async ({ t }) => {
      for (const [field, body] of [
        ['memo', transfer({ memo: bad })],
        ['externalId', transfer({ externalId: bad })],
        [
          'data.params.x',
          {
            category: 'CONTRACT_CALL',
            vaultId: 'v-1',
            blockChain: 'TRON',
            data: { method: 'm', params: { x: bad } },
          },
        ],
      ] as const) {
        const res = await post(t, paths.transactions(), body);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.message).toContain(field);
      }
    });

    appTest(
      `staff create with ${label}: 400 naming the field, no password or hash logged`,
      async ({ t }) => {
        const res = await post(t, '/api/console/staff/', {
          email: `x${Math.random().toString(36).slice(2)}@example.com`,
          name: bad,
          role: 'viewer',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.message).toContain('name');
      },
    );

    appTest(`sign-in with ${label}: 400 naming the field`, async ({ t }) => {
      const res = await t.anonymous('/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost' },
        body: JSON.stringify({ email: `a${bad}@example.com`, password: PASSWORD }),
      });
      const body = (await res.json()) as { message: string };
      expect(res.status).toBe(400);
      expect(body.message).toContain('email');
    });
  }

  appTest(
    'leaves no account number, routing number, password, hash, cookie or token in any log line',
    ({ t }) => {
      expect(log.text()).toContain('"msg":"request"');
      expect(secretsIn(t, log.text())).toEqual([]);
    },
  );
});
