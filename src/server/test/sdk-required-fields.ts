import { isDecimalString } from '#contract/decimal.ts';

/**
 * The fields the provider's SDKs cannot do without, per record (docs/api-clients.md,
 * "What the sandbox accepts from SDK clients"): the Python SDK's dataclasses
 * refuse a response missing one of their required fields or carrying a
 * wrong type, and the JS SDK's types promise them to its callers. Written
 * from the fields those types name, not from their code.
 *
 * Where the JS types call something required that the description says is
 * absent until known (`txHash`, `error`) or absent by design (`asset` on a
 * contract call), the description wins and the field is not listed.
 */

type Check = (value: unknown) => string | null;

const isString: Check = (v) => (typeof v === 'string' ? null : 'a string');
const isBoolean: Check = (v) => (typeof v === 'boolean' ? null : 'a boolean');
const isDecimal: Check = (v) =>
  typeof v === 'string' && isDecimalString(v) ? null : 'a decimal string';
/** The key is there; its value may be anything, null included (Python's `Any`). */
const isPresent: Check = () => null;
const isStringOrNull: Check = (v) =>
  v === null || typeof v === 'string' ? null : 'string or null';
const arrayOf =
  (fields: Record<string, Check>): Check =>
  (v) => {
    if (!Array.isArray(v)) return 'an array';
    for (const [i, item] of v.entries()) {
      const problems = missingFields(fields, item);
      if (problems.length > 0) return `[${i}]: ${problems.join('; ')}`;
    }
    return null;
  };

/** A vault's signers and viewers: the SDKs' User. The JS SDK types every part of a signer. */
const person = { id: isString, firstName: isString, lastName: isString, email: isString };

export const SDK_REQUIRED = {
  transaction: {
    id: isString,
    orgId: isString,
    vaultId: isString,
    amount: isDecimal,
    status: isString,
    transactionType: isString,
    category: isString,
    subCategory: isString,
    blockChain: isString,
    createdAt: isString,
    updatedAt: isString,
    isDeleted: isBoolean,
  },
  vault: {
    id: isString,
    orgId: isString,
    vaultName: isString,
    vaultType: isString,
    wallets: arrayOf({ id: isString, blockchain: isString }),
    signers: arrayOf(person),
    viewers: arrayOf({ id: isString }),
    walletsGenerated: isBoolean,
    createdAt: isString,
    updatedAt: isString,
    isDeleted: isBoolean,
  },
  contact: {
    id: isString,
    orgId: isString,
    name: isString,
    blockChain: isString,
    address: isString,
    status: isString,
    isSmartContractAddress: isBoolean,
    isSanctioned: isBoolean,
    createdById: isString,
    createdAt: isString,
    updatedAt: isString,
    isDeleted: isBoolean,
  },
  asset: { name: isString, symbol: isString, blockChain: isString, details: isPresent },
  chain: { value: isString, label: isString, logo: isString },
  // Every field of the description's BankAccount; those a rail may not use are null.
  bankAccount: {
    id: isString,
    orgId: isString,
    subOrgId: isStringOrNull,
    orgEntityId: isString,
    createdById: isString,
    createdAt: isString,
    updatedAt: isString,
    isDeleted: isBoolean,
    status: isString,
    accountNumber: isString,
    accountName: isString,
    routingNumber: isStringOrNull,
    clientBankAccountId: isStringOrNull,
    paymentMethod: isString,
    bankName: isString,
    streetLine: isStringOrNull,
    city: isStringOrNull,
    state: isStringOrNull,
    postalCode: isStringOrNull,
    country: isString,
  },
} satisfies Record<string, Record<string, Check>>;

export type SdkRecordKind = keyof typeof SDK_REQUIRED;

function missingFields(fields: Record<string, Check>, record: unknown): string[] {
  if (typeof record !== 'object' || record === null) return ['not an object'];
  const problems: string[] = [];
  for (const [field, check] of Object.entries(fields)) {
    if (!(field in record)) {
      problems.push(`${field} missing`);
      continue;
    }
    const wrong = check((record as Record<string, unknown>)[field]);
    if (wrong) problems.push(`${field} must be ${wrong}`);
  }
  return problems;
}

/** What a record lacks for the SDKs, as readable lines; empty when it has everything. */
export function sdkShapeProblems(kind: SdkRecordKind, record: unknown): string[] {
  return missingFields(SDK_REQUIRED[kind], record);
}
