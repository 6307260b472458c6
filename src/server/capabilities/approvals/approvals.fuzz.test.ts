import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { createTestApiUser, signedInit, type TestApiUser } from '../../test/api-client.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

// Hostile input to the endpoints of bank-account creation and approvals,
// sent by an authenticated API client: whatever arrives, the answer is a
// 2xx or a 4xx with {message, code}, never a 5xx.
const appTest = appTestWith().extend('user', { scope: 'file' }, ({ t }) =>
  createTestApiUser(t, 'fuzzer'),
);

async function expectNo5xx(
  t: TestApp,
  user: TestApiUser,
  method: string,
  url: string,
  body?: unknown,
) {
  const res = await t.app.request(url, signedInit(user, method, url, body));
  const text = await res.text();
  expect(res.status, `${method} ${url} ${JSON.stringify(body)} → ${text}`).toBeLessThan(500);
  if (res.status >= 400) expect(ApiErrorBody.safeParse(JSON.parse(text)).success, text).toBe(true);
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '\u0000', 'DE89370400440532013000', '021000021', 'US'),
);
const field = fc.constantFrom(
  'paymentMethod',
  'subOrgId',
  'accountName',
  'accountNumber',
  'routingNumber',
  'bankName',
  'streetLine',
  'city',
  'state',
  'postalCode',
  'country',
  'clientBankAccountId',
  'dataSignatureHex',
);
const value = fc.oneof(
  text,
  fc.constantFrom('US_ACH', 'US_WIRE', 'SEPA', 'SWIFT', 'BANK_TRANSFER'),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(text, { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const bankAccountBody = fc.oneof(fc.dictionary(field, value), fc.anything({ maxDepth: 2 }));

describe('fuzz: never a 5xx', () => {
  // The app and its API user are made before the properties run, under the
  // set-up limit: made by the first property that names them, their start
  // (seconds on a loaded machine) was counted in its 60 s, and 150 requests
  // were left what remained of it.
  appTest.beforeAll(async ({ t, user }) => {
    expect(user.orgId).toBe(t.orgId);
  });

  appTest('POST bank_accounts with arbitrary bodies', async ({ t, user }) => {
    await fc.assert(
      fc.asyncProperty(bankAccountBody, (body) =>
        expectNo5xx(t, user, 'POST', paths.bankAccounts(), body),
      ),
      { numRuns: 150 },
    );
  });

  appTest('approval messages and actions with arbitrary ids and bodies', async ({ t, user }) => {
    const actionBody = fc.oneof(
      fc.record(
        {
          action: fc.oneof(fc.constantFrom('approve', 'reject'), text),
          signature: fc.oneof(text, fc.stringMatching(/^[0-9a-f]{0,80}$/)),
          reason: fc.oneof(text, fc.constant(null)),
        },
        { requiredKeys: [] },
      ),
      fc.anything({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(text, actionBody, async (id, body) => {
        const message = `${paths.approvalMessage()}${toQueryString({ entityId: id })}`;
        await expectNo5xx(t, user, 'GET', message);
        await expectNo5xx(t, user, 'POST', paths.approvalAction(id || 'x'), body);
      }),
      { numRuns: 150 },
    );
  });
});
