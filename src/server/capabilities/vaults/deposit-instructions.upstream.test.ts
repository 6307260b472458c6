import { describe, expect } from 'vitest';
import { Vault } from '#contract/reference.ts';
import { VaultDepositInstructionsResponse } from '#contract/vault.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards getVaultDepositInstructions, its query included,
// to console B (the sandbox) over real HTTP, and answers B's refusals as B worded them.

const upstreamTest = twoConsolesTest({}, async () => {});

const instructionsUrl = (vaultId: string, request: Record<string, string>) =>
  `/api/external/vaults/${vaultId}/deposit_instructions/?${new URLSearchParams(request)}`;

describe('getVaultDepositInstructions through an upstream console', () => {
  upstreamTest(
    "the query is forwarded: B's address for a chain, B's settlement account for a rail, B's refusal naming the field",
    async ({ t, initiator }) => {
      const vaultId = t.fixture.treasury.id;
      const vault = Vault.parse((await t.b.get(`/api/external/vaults/${vaultId}/`)).body);
      const address = vault.wallets?.find((w) => w.blockchain === 'ETHEREUM')?.address;

      const crypto = await initiator.json(
        instructionsUrl(vaultId, { asset: 'USDC', chain: 'ETHEREUM' }),
      );
      expect(crypto.status, JSON.stringify(crypto.body)).toBe(200);
      expect(VaultDepositInstructionsResponse.parse(crypto.body).results).toEqual([
        { type: 'EXTERNAL_ADDRESS', asset: 'USDC', chain: 'ETHEREUM', address },
      ]);

      const fiat = await initiator.json(
        instructionsUrl(vaultId, { asset: 'GBP', paymentRail: 'SWIFT' }),
      );
      expect(fiat.status, JSON.stringify(fiat.body)).toBe(200);
      expect(VaultDepositInstructionsResponse.parse(fiat.body).results[0]).toMatchObject({
        type: 'EXTERNAL_BANK_ACCOUNT',
        asset: 'GBP',
        bankDetails: { bankName: 'Sandbox Albion Bank', swiftBic: 'NWBKGB2L' },
      });

      const refused = await initiator.json(
        instructionsUrl(vaultId, { asset: 'DOGE', chain: 'ETHEREUM' }),
      );
      expect(refused).toMatchObject({ status: 400, body: { fields: [{ field: 'asset' }] } });
    },
  );
});
