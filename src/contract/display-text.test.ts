import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { StaffCreateRequest, StaffUpdateRequest } from './auth.ts';
import { BankAccountCreateRequest } from './bank-account.ts';
import { displayTextProblem } from './display-text.ts';
import { CreateTransactionRequest } from './transaction.ts';

// Each is Unicode category Cf: bidi embeddings and overrides, isolates, marks,
// zero-width characters, the word joiner, the byte-order mark and the soft hyphen.
const FORMAT_CHARACTERS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u00AD',
];

function problems(schema: z.core.$ZodType, input: unknown): Record<string, string> {
  const result = z.safeParse(schema, input);
  if (result.success) return {};
  // A field breaking two rules has both messages, the first rule's first.
  const found: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    found[field] = found[field] ? `${found[field]}; ${issue.message}` : issue.message;
  }
  return found;
}

const ach = {
  paymentMethod: 'US_ACH',
  accountName: 'Acme Treasury LLC',
  accountNumber: '000123456789',
  routingNumber: '021000021',
  bankName: 'JPMorgan Chase',
  country: 'US',
};

const transfer = {
  category: 'TRANSFER',
  source: { type: 'VAULT', id: 'vault_1' },
  destination: { type: 'CONTACT', id: 'contact_1' },
  amount: '1',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
};

describe('displayTextProblem', () => {
  it('names the field, the rule and the character for every format character', () => {
    for (const char of FORMAT_CHARACTERS) {
      const code = `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
      expect(displayTextProblem('accountName', `Acme${char}Ltd`)).toBe(
        `accountName must not contain control, line-break, invisible or text-direction characters; found ${code}`,
      );
      expect(displayTextProblem('memo', `pay${char}now`, 'multi-line')).toContain(code);
    }
  });

  it('refuses line breaks in one-line text only, and lets every script through', () => {
    expect(displayTextProblem('name', 'a\nb')).toContain('U+000A');
    expect(displayTextProblem('name', 'a\u2028b')).toContain('U+2028');
    expect(displayTextProblem('memo', 'first line\nsecond line', 'multi-line')).toBeNull();
    for (const name of ['Zoë Ångström', 'شركة الأمل', 'שלום בע"מ', '株式会社テスト', 'Ольга']) {
      expect(displayTextProblem('name', name)).toBeNull();
    }
  });
});

describe('the schemas forms and server share', () => {
  it('refuse a format character in each bank-account text field, naming it', () => {
    const wire = {
      ...ach,
      paymentMethod: 'US_WIRE',
      streetLine: '1 Main St',
      city: 'New York',
      state: 'NY',
      postalCode: '10017',
    };
    for (const field of ['accountName', 'bankName', 'streetLine', 'city'] as const) {
      const found = problems(BankAccountCreateRequest, { ...wire, [field]: `A\u202Eb` });
      expect(found[field]).toMatch(new RegExp(`^${field} must not contain .*U\\+202E$`));
    }
    expect(
      problems(BankAccountCreateRequest, { ...ach, clientBankAccountId: 'id\u200B1' }),
    ).toMatchObject({ clientBankAccountId: expect.stringContaining('U+200B') });
    expect(
      problems(BankAccountCreateRequest, { ...ach, accountNumber: '0001234\u206656789' }),
    ).toMatchObject({ accountNumber: expect.stringContaining('U+2066') });
    expect(problems(BankAccountCreateRequest, ach)).toEqual({});
  });

  it("refuse them in a transaction's memo and externalId", () => {
    expect(problems(CreateTransactionRequest, { ...transfer, memo: 'rent\u202Etnuocca' })).toEqual({
      memo: expect.stringContaining('U+202E'),
    });
    expect(problems(CreateTransactionRequest, { ...transfer, externalId: 'inv-1\u200B' })).toEqual({
      externalId: expect.stringContaining('U+200B'),
    });
    // The existing rule still answers for control characters, once.
    expect(problems(CreateTransactionRequest, { ...transfer, externalId: 'inv\t1' })).toEqual({
      externalId: 'externalId must not contain control characters',
    });
    expect(problems(CreateTransactionRequest, { ...transfer, memo: 'line one\nline two' })).toEqual(
      {},
    );
  });

  it("refuse them in a staff member's name, on create and on change", () => {
    const member = {
      email: 'a@b.test',
      name: 'Ann\u2067',
      role: 'viewer',
    };
    expect(problems(StaffCreateRequest, member)).toEqual({
      name: expect.stringContaining('U+2067'),
    });
    expect(problems(StaffUpdateRequest, { name: 'Bob\u200D' })).toEqual({
      name: expect.stringContaining('U+200D'),
    });
    expect(problems(StaffUpdateRequest, { name: 'Bob' })).toEqual({});
  });
});
