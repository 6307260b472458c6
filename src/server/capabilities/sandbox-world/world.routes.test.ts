import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, cmp, mul, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import {
  createSandboxSubOrg,
  depositToSandboxVault,
  surgeSandboxFees,
} from '#contract/endpoints/sandbox-world.ts';
import { paths } from '#contract/paths.ts';
import { SubOrg, SubOrgListResponse, Vault, VaultBalances } from '#contract/reference.ts';
import { EstimatedFeeResponse } from '#contract/transaction.ts';
import { Transaction } from '#contract/transaction-record.ts';
import { transactions } from '../../db/schema/sandbox.ts';
import { appTestWith } from '../../test/app-test.ts';
import { createEther } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';

const worldTest = appTestWith({}, (t) => createEther(t.db));
/** The same app acting on "upstream": a backend without the sandbox's tools. */
const upstreamTest = appTestWith({ wrapBackend: (b) => ({ ...b, sandboxWorld: undefined }) });

const json = { 'Content-Type': 'application/json' };
const post = (who: StaffSession, url: string, body: unknown) =>
  who.json(url, { method: 'POST', headers: json, body: JSON.stringify(body) });

async function newVault(
  who: StaffSession,
  vaultName: string,
  subOrgId?: string,
): Promise<Vault & { id: string }> {
  const made = await post(who, paths.vaults(), {
    vaultName,
    chains: ['ETHEREUM', 'BITCOIN'],
    ...(subOrgId ? { subOrgId } : {}),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const vault = Vault.parse(made.body);
  return { ...vault, id: vault.id ?? '' };
}

const subOrgsUrl = pathOf(createSandboxSubOrg);
const depositUrl = (vaultId: string) => pathOf(depositToSandboxVault, { vaultId });
const surgeUrl = (subOrgId: string) => pathOf(surgeSandboxFees, { subOrgId });
/** `ms` from now: this app's sandbox keeps the real time (its estimates' own clock). */
const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The fee of the HIGH tier for sending 0.1 ETH out of `vaultId` now, as the custody API estimates it. */
async function highFee(who: StaffSession, vaultId: string): Promise<string> {
  const res = await post(who, paths.estimateFee(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: vaultId },
    destination: {
      type: 'EXTERNAL_ADDRESS',
      address: '0x000000000000000000000000000000000000dEaD',
    },
    amount: '0.1',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return EstimatedFeeResponse.parse(res.body).high.expectedFeeInAsset;
}

describe('making a sandbox world: a sub-organization, a vault, money in it', () => {
  worldTest('an admin makes a sub-organization the custody API then lists', async ({ t }) => {
    const made = await post(t.admin, subOrgsUrl, { name: '  Desk of its own  ' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const subOrg = SubOrg.parse(made.body);
    expect(subOrg).toMatchObject({ orgId: t.orgId, name: 'Desk of its own' });
    const listed = SubOrgListResponse.parse(
      (await t.admin.json(`${paths.subOrgs()}?limit=100`)).body,
    );
    expect(listed.results.map((s) => s.id)).toContain(subOrg.id);
  });

  worldTest(
    'a deposit is a completed incoming transfer that credits the vault, and the balance is what the movements add up to',
    async ({ t }) => {
      const subOrg = SubOrg.parse((await post(t.admin, subOrgsUrl, { name: 'Funded desk' })).body);
      const vault = await newVault(t.admin, 'Funded vault', subOrg.id ?? '');

      const first = await post(t.admin, depositUrl(vault.id), {
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '10',
      });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(Transaction.parse(first.body)).toMatchObject({
        status: 'COMPLETED',
        transactionType: 'INCOMING',
        subCategory: 'INCOMING_TRANSFER',
        blockChain: 'ETHEREUM',
        asset: 'ETH',
        amount: '10',
        subOrgId: subOrg.id,
        destination: { type: 'VAULT', id: vault.id },
      });
      const second = await post(t.admin, depositUrl(vault.id), {
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '2.5',
      });
      expect(second.status, JSON.stringify(second.body)).toBe(201);

      const balances = VaultBalances.parse(
        (await t.admin.json(paths.vaultBalances(vault.id))).body,
      );
      expect(balances.ETH?.ETHEREUM).toBe('12.5');
      // The ledger: the vault's balance is the sum of its completed transactions' changes.
      const rows = await t.db
        .select({ status: transactions.status, balanceChanges: transactions.balanceChanges })
        .from(transactions)
        .where(eq(transactions.vaultId, vault.id));
      const moved = sum(
        rows
          .filter((r) => r.status === 'COMPLETED')
          .flatMap((r) => r.balanceChanges?.changes ?? [])
          .filter((c) => c.party?.type === 'VAULT' && c.party.id === vault.id)
          .map((c) => c.amount ?? '0'),
      );
      expect(cmp(moved, add('10', '2.5'))).toBe(0);

      const history = (
        await t.admin.json(`${paths.transaction(Transaction.parse(second.body).id ?? '')}`)
      ).body as { statusHistory?: Array<{ status: string }> };
      expect(history.statusHistory?.map((h) => h.status)).toEqual([
        'WAITING_CONFIRMATION',
        'COMPLETED',
      ]);
    },
  );

  worldTest(
    'refuses a bad amount, an asset or chain the vault cannot hold, naming the field',
    async ({ t }) => {
      const vault = await newVault(t.admin, 'Refusing vault');
      const cases: Array<[Record<string, unknown>, string, RegExp]> = [
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: '-1' }, 'amount', /positive decimal/],
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: 'ten' }, 'amount', /positive decimal/],
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: '0' }, 'amount', /greater than zero/],
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: 5 }, 'amount', /amount/],
        [{ asset: 'ETH', chain: 'ETHEREUM' }, 'amount', /amount is required/],
        [
          { asset: 'ETH', chain: 'ETHEREUM', amount: '0.0000000000000000001' },
          'amount',
          /18 decimal places/,
        ],
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: '1000000001' }, 'amount', /at most 1000000000/],
        [{ asset: 'DOGE', chain: 'ETHEREUM', amount: '1' }, 'asset', /does not exist on ETHEREUM/],
        [{ asset: 'ETH', chain: 'SOLANA', amount: '1' }, 'chain', /no wallet on SOLANA/],
        [{ asset: 'ETH', chain: 'NOWHERE', amount: '1' }, 'chain', /not a chain/],
      ];
      for (const [body, field, message] of cases) {
        const refused = await post(t.admin, depositUrl(vault.id), body);
        const detail = `${JSON.stringify(body)} → ${refused.status} ${JSON.stringify(refused.body)}`;
        expect(refused.status, detail).toBe(400);
        expect(refused.body, detail).toMatchObject({
          code: 'VALIDATION_ERROR',
          fields: [expect.objectContaining({ field, message: expect.stringMatching(message) })],
        });
      }
      const balances = VaultBalances.parse(
        (await t.admin.json(paths.vaultBalances(vault.id))).body,
      );
      expect(balances.ETH?.ETHEREUM ?? '0').toBe('0');
      const noName = await post(t.admin, subOrgsUrl, { name: '   ' });
      expect(noName.status).toBe(400);
      expect(noName.body).toMatchObject({
        fields: [{ field: 'name', message: 'name is required' }],
      });
    },
  );

  worldTest(
    'only an admin: others are refused by role, a restricted admin makes no sub-organization and funds only its own vaults',
    async ({ t, approver, subOrgId }) => {
      const vault = await newVault(t.admin, 'Guarded vault', subOrgId);
      const deposit = { asset: 'ETH', chain: 'ETHEREUM', amount: '1' };
      for (const refused of [
        await post(approver, subOrgsUrl, { name: 'Not mine to make' }),
        await post(approver, depositUrl(vault.id), deposit),
      ]) {
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'FORBIDDEN_ROLE' });
      }
      const elsewhere = SubOrg.parse((await post(t.admin, subOrgsUrl, { name: 'Elsewhere' })).body);
      const restricted = await t.signIn('admin', { subOrgIds: [elsewhere.id ?? ''] });
      const subOrg = await post(restricted, subOrgsUrl, { name: 'Beyond my scope' });
      expect(subOrg.status).toBe(403);
      expect(subOrg.body).toMatchObject({ code: 'OUTSIDE_ADMIN_SCOPE' });
      const outside = await post(restricted, depositUrl(vault.id), deposit);
      expect(outside.status).toBe(404);
      const own = await newVault(t.admin, 'Restricted admin vault', elsewhere.id);
      expect((await post(restricted, depositUrl(own.id), deposit)).status).toBe(201);
    },
  );
});

describe('a fee surge of one sub-organization', () => {
  worldTest(
    'raises the fee estimate of that sub-organization’s items on that chain until it is ended, and no other’s',
    async ({ t }) => {
      const surged = SubOrg.parse((await post(t.admin, subOrgsUrl, { name: 'Surged desk' })).body);
      const calm = SubOrg.parse((await post(t.admin, subOrgsUrl, { name: 'Calm desk' })).body);
      const hot = await newVault(t.admin, 'Surged vault', surged.id ?? '');
      const cool = await newVault(t.admin, 'Calm vault', calm.id ?? '');
      const before = await highFee(t.admin, hot.id);
      expect(await highFee(t.admin, cool.id)).toBe(before);

      const until = fromNow(10 * 60_000);
      const set = await post(t.admin, surgeUrl(surged.id ?? ''), {
        chain: 'ETHEREUM',
        factor: '3',
        until,
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toEqual({
        subOrgId: surged.id,
        chain: 'ETHEREUM',
        factor: '3',
        until,
        steady: false,
      });

      // Three times the market's price: the fee follows it, to the gas unit's rounding.
      const during = await highFee(t.admin, hot.id);
      expect(cmp(during, mul(before, '2.99'))).toBeGreaterThan(0);
      expect(cmp(during, mul(before, '3.01'))).toBeLessThan(0);
      // Another sub-organization's items, and another chain's, keep the market's own fee.
      expect(await highFee(t.admin, cool.id)).toBe(before);

      // A factor of 1 ends it early (its end in time: fee-surges.test.ts).
      const ended = await post(t.admin, surgeUrl(surged.id ?? ''), {
        chain: 'ETHEREUM',
        factor: '1',
        until,
      });
      expect(ended.status, JSON.stringify(ended.body)).toBe(200);
      expect(await highFee(t.admin, hot.id)).toBe(await highFee(t.admin, cool.id));

      // Held steady: the calm market times the factor (its standing still: fee-surges.test.ts).
      const held = await post(t.admin, surgeUrl(surged.id ?? ''), {
        chain: 'ETHEREUM',
        factor: '2',
        until,
        steady: true,
      });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
      expect(held.body).toMatchObject({ factor: '2', steady: true });
      expect(await highFee(t.admin, hot.id)).not.toBe(await highFee(t.admin, cool.id));
    },
  );

  worldTest(
    'is refused with a 400 naming the field for a chain, factor or end it cannot be, and 404 for a sub-organization not found',
    async ({ t, subOrgId }) => {
      const soon = fromNow(60_000);
      const cases: Array<[unknown, string]> = [
        [{ chain: 'NOWHERE', factor: '3', until: soon }, 'chain'],
        [{ chain: 'ETHEREUM', factor: '0', until: soon }, 'factor'],
        [{ chain: 'ETHEREUM', factor: '1001', until: soon }, 'factor'],
        [{ chain: 'ETHEREUM', factor: 3, until: soon }, 'factor'],
        [{ chain: 'ETHEREUM', factor: '3', until: 'tomorrow' }, 'until'],
        [{ chain: 'ETHEREUM', factor: '3', until: '2020-01-01T00:00:00Z' }, 'until'],
        [{ chain: 'ETHEREUM', factor: '3', until: fromNow(25 * 3_600_000) }, 'until'],
        [{ chain: 'ETHEREUM', factor: '3', until: soon, steady: 'yes' }, 'steady'],
      ];
      for (const [body, field] of cases) {
        const refused = await post(t.admin, surgeUrl(subOrgId), body);
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: [{ field }] });
      }
      const unknown = await post(t.admin, surgeUrl('no-such-sub-org'), {
        chain: 'ETHEREUM',
        factor: '3',
        until: soon,
      });
      expect(unknown.status, JSON.stringify(unknown.body)).toBe(404);
    },
  );

  worldTest(
    'only an admin, and a restricted admin only in its own sub-organizations',
    async ({ t, approver, subOrgId }) => {
      const body = {
        chain: 'ETHEREUM',
        factor: '2',
        until: fromNow(60_000),
      };
      const byRole = await post(approver, surgeUrl(subOrgId), body);
      expect(byRole.status).toBe(403);
      expect(byRole.body).toMatchObject({ code: 'FORBIDDEN_ROLE' });
      const elsewhere = SubOrg.parse((await post(t.admin, subOrgsUrl, { name: 'Own desk' })).body);
      const restricted = await t.signIn('admin', { subOrgIds: [elsewhere.id ?? ''] });
      expect((await post(restricted, surgeUrl(subOrgId), body)).status).toBe(404);
      expect((await post(restricted, surgeUrl(elsewhere.id ?? ''), body)).status).toBe(200);
    },
  );
});

describe('in upstream mode', () => {
  upstreamTest('both are refused with 409, saying the provider makes them', async ({ t }) => {
    for (const refused of [
      await post(t.admin, subOrgsUrl, { name: 'Upstream desk' }),
      await post(t.admin, depositUrl('any-vault'), {
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '1',
      }),
      await post(t.admin, surgeUrl('any-sub-org'), {
        chain: 'ETHEREUM',
        factor: '3',
        until: fromNow(60_000),
      }),
    ]) {
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'SANDBOX_ONLY',
        message: expect.stringMatching(/upstream custody service/),
      });
    }
  });
});
