import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { Vault } from '#contract/reference.ts';
import { VaultDepositInstructionsResponse } from '#contract/vault.ts';
import { engineTest } from '../../test/engine-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { sdkCaller, type SdkCaller } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';

/** The JS SDK's getVaultDepositInstructions: its request's fields as the query. */
const instructionsUrl = (vaultId: string, request: Record<string, string>) =>
  `/api/external/vaults/${vaultId}/deposit_instructions/?${new URLSearchParams(request)}`;

async function instructions(client: SdkCaller, url: string) {
  const got = await client.call('js', 'GET', url, undefined, url);
  return { ...got, parsed: () => VaultDepositInstructionsResponse.parse(got.body) };
}

describe('getVaultDepositInstructions, as the JS SDK sends it', () => {
  engineTest(
    "crypto: the vault's address on the chain; fiat: the sandbox's settlement account, masked",
    async ({ t, f }) => {
      const client = await sdkCaller(t, 'deposit instructions reader');
      const vault = Vault.parse((await t.get(paths.vault(f.treasury.id))).body);
      const ethAddress = vault.wallets?.find((w) => w.blockchain === 'ETHEREUM')?.address;

      const usdc = await instructions(
        client,
        instructionsUrl(f.treasury.id, { asset: 'USDC', chain: 'ETHEREUM' }),
      );
      expect(usdc.status, usdc.text).toBe(200);
      expect(Object.keys(usdc.body)).toEqual(['results']);
      expect(usdc.parsed().results).toEqual([
        { type: 'EXTERNAL_ADDRESS', asset: 'USDC', chain: 'ETHEREUM', address: ethAddress },
      ]);

      const wire = await instructions(
        client,
        instructionsUrl(f.treasury.id, { asset: 'USD', paymentRail: 'WIRE' }),
      );
      expect(wire.status, wire.text).toBe(200);
      const [usd] = wire.parsed().results;
      expect(usd).toMatchObject({
        type: 'EXTERNAL_BANK_ACCOUNT',
        asset: 'USD',
        paymentRail: 'WIRE',
        bankDetails: {
          bankName: 'Lakeside Sandbox Bank',
          beneficiaryName: 'Sandbox Ramp Settlement LLC',
          accountNumberMasked: '•••• 6789',
          routingNumber: '021000021',
          paymentRail: 'US_WIRE',
        },
      });
      expect(usd?.memo).toMatch(/^[A-Z0-9-]{6,}$/);
      expect(usd?.bankDetails).not.toHaveProperty('accountNumber');
      expect(usd?.bankDetails).not.toHaveProperty('iban');

      const sepa = await instructions(
        client,
        instructionsUrl(f.treasury.id, { asset: 'eur', paymentRail: 'SEPA' }),
      );
      expect(sepa.status, sepa.text).toBe(200);
      expect(sepa.parsed().results[0]).toMatchObject({
        asset: 'EUR',
        paymentRail: 'SEPA',
        bankDetails: { swiftBic: 'COBADEFFXXX', accountNumberMasked: '•••• 3000' },
      });
      expect(sepa.parsed().results[0]?.bankDetails).not.toHaveProperty('iban');
    },
  );

  engineTest('every request it cannot answer is a 4xx naming the field', async ({ t, f }) => {
    const client = await sdkCaller(t, 'deposit instructions refusals');
    const made = await client.call('js', 'POST', paths.vaults(), {
      vaultName: 'Ethereum only',
      chains: ['ETHEREUM'],
    });
    expect(made.status, made.text).toBe(200);
    const ethOnly = Vault.parse(made.body).id ?? '';
    for (const [vaultId, request, field] of [
      [f.treasury.id, { asset: 'USDC' }, 'chain'],
      [f.treasury.id, { asset: 'USDC', chain: 'ETHEREUM', paymentRail: 'WIRE' }, 'paymentRail'],
      [f.treasury.id, { chain: 'ETHEREUM' }, 'asset'],
      [f.treasury.id, { asset: 'DOGE', chain: 'ETHEREUM' }, 'asset'],
      [f.treasury.id, { asset: 'USDC', chain: 'NOWHERE' }, 'chain'],
      [ethOnly, { asset: 'BTC', chain: 'BITCOIN' }, 'chain'],
      [f.treasury.id, { asset: 'JPY', paymentRail: 'WIRE' }, 'asset'],
      [f.treasury.id, { asset: 'USD', paymentRail: 'SEPA' }, 'paymentRail'],
      [f.treasury.id, { asset: 'USD', paymentRail: 'CHEQUE' }, 'paymentRail'],
    ] as const) {
      const refused = await instructions(client, instructionsUrl(vaultId, request));
      expect(refused.status, `${JSON.stringify(request)}: ${refused.text}`).toBe(400);
      expect(ApiErrorBody.parse(refused.body).fields?.map((x) => x.field)).toContain(field);
    }
    const unknown = await instructions(
      client,
      instructionsUrl('no-such-vault', { asset: 'USDC', chain: 'ETHEREUM' }),
    );
    expect(unknown.status).toBe(404);
  });

  engineTest('a member held to other sub-organizations finds no such vault', async ({ t, f }) => {
    const desk = await createSubOrg(t.db, t.orgId, 'Instructions desk');
    const member = await signInStaff(t.app, t.db, t.authClock, {
      role: 'viewer',
      subOrgIds: [desk.id],
    });
    const refused = await member.json(
      instructionsUrl(f.treasury.id, { asset: 'USDC', chain: 'ETHEREUM' }),
    );
    expect(refused.status).toBe(404);
  });
});
