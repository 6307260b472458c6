import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankAccountCreateRequest } from '#contract/bank-account.ts';
import { CreateTransactionRequest } from '#contract/transaction.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { createSandboxBackend } from './sandbox-backend.ts';
import { ACH } from '../test/create-requests.ts';

// A migrated database nobody has seeded: the sandbox has no organization.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

describe('a sandbox with no organization', () => {
  it('answers every create the same way: 409 NO_ORGANIZATION', async () => {
    const backend = createSandboxBackend({ db: handle.db });
    const bankAccount = BankAccountCreateRequest.parse(ACH);
    const transfer = CreateTransactionRequest.parse({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: '6f1c2f7e-0a4b-4c55-9a43-3b1f7d0c2a11' },
      destination: {
        type: 'EXTERNAL_ADDRESS',
        id: '0x52908400098527886E0F7030069857D2E4169EE7',
      },
      amount: '1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    });
    for (const create of [
      () => backend.createBankAccount({}, bankAccount),
      () => backend.createTransaction({}, transfer),
    ]) {
      await expect(create()).rejects.toMatchObject({
        status: 409,
        code: 'NO_ORGANIZATION',
        message: 'The sandbox has no organization yet',
      });
    }
  });
});
