import { createHash, randomBytes } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { CHAINS } from '../src/contract/chains.ts';
import { csrfOf } from './worker-members.ts';

/**
 * Each Playwright worker's own world, made once per worker through the
 * console's API: a sub-organization, two vaults in it with a wallet on every
 * chain, money deposited into the first (the sandbox's deposit route,
 * docs/running.md), and approved contacts. Stories that spend, list or count
 * use these, found by their names (which carry the worker's tag), so no
 * other worker's story moves a balance or adds a row they read.
 *
 * The sub-organization is made first (makeSubOrg), by an admin of the whole
 * organization, since the worker's members are held to it
 * (e2e/worker-members.ts). The rest is made by the worker's
 * organization-wide admin (`orgAdmin`); the vaults, contacts and bank account it proposes are
 * approved by the worker's approvers, as the approval policy asks, so no
 * change request of the world is left waiting in anyone's inbox.
 *
 * The sub-organization's fee market is held calm on every chain for the
 * run (holdFeesCalm): the sandbox's market follows the wall clock, and
 * Ethereum's triples at the top of every hour, which voids an approval made
 * a minute before when the next vote comes after (its card's fee ceiling
 * no longer holds). A story about a fee that moves sets its own surge.
 */

export interface WorldVault {
  id: string;
  name: string;
}

export interface WorldContact {
  id: string;
  name: string;
  address: string;
}

export interface WorldSubOrg {
  id: string;
  name: string;
}

export interface WorkerWorld {
  tag: string;
  subOrg: WorldSubOrg;
  /** Holds what the stories spend: see FUNDS. */
  funded: WorldVault;
  /** Holds nothing at first: the other end of an internal transfer, an on-ramp's vault. */
  empty: WorldVault;
  /** Approved Ethereum contact for ETH and USDC. */
  ethereum: WorldContact;
  /** Approved Tron contact for TRX (a resource delegation's receiver). */
  tron: WorldContact;
  /** Approved US ACH account, paid in dollars: an off-ramp's or an FX conversion's payee. */
  bankAccount: WorldBankAccount;
}

export interface WorldBankAccount {
  id: string;
  accountName: string;
}

/** What `funded` holds from the start: enough for every story's transfers, stakes, fees and ramps. */
export const FUNDS: ReadonlyArray<{ asset: string; chain: string; amount: string }> = [
  { asset: 'ETH', chain: 'ETHEREUM', amount: '50' },
  { asset: 'USDC', chain: 'ETHEREUM', amount: '100000' },
  { asset: 'USDT', chain: 'ETHEREUM', amount: '100000' },
  { asset: 'POL', chain: 'POLYGON', amount: '100000' },
  { asset: 'USDC', chain: 'POLYGON', amount: '100000' },
  { asset: 'ETH', chain: 'BASE', amount: '50' },
  { asset: 'USDC', chain: 'BASE', amount: '100000' },
  { asset: 'BTC', chain: 'BITCOIN', amount: '5' },
  { asset: 'SOL', chain: 'SOLANA', amount: '1000' },
  { asset: 'TRX', chain: 'TRON', amount: '1000000' },
  { asset: 'USDT', chain: 'TRON', amount: '100000' },
  { asset: 'ICP', chain: 'ICP', amount: '1000' },
];

async function post(
  request: APIRequestContext,
  origin: string,
  url: string,
  data: unknown,
  status = 200,
): Promise<Record<string, unknown>> {
  const answer = await request.post(url, {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(request) },
    data,
  });
  expect(answer.status(), `POST ${url}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as Record<string, unknown>;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** base58check of `payload`: its bytes and the first four of their double SHA-256. */
function base58check(payload: Buffer): string {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest();
  const bytes = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  while (n > 0n) {
    text = `${BASE58[Number(n % 58n)] ?? ''}${text}`;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** An address of the chain's shape nobody else uses (Tron: 0x41 and 20 bytes, base58check). */
function freshAddress(chain: 'ETHEREUM' | 'TRON'): string {
  if (chain === 'ETHEREUM') return `0x${randomBytes(20).toString('hex')}`;
  return base58check(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]));
}

/**
 * Approves the change request of `entityId` with each of `deciders` in turn
 * until the policy's rule is met (a decision answered PENDING asks for more).
 */
async function approve(
  entityId: string,
  deciders: readonly APIRequestContext[],
  origin: string,
): Promise<void> {
  for (const decider of deciders) {
    const message = await decider.get(
      `/api/external/change_requests/approvals/approval_message/?entityId=${entityId}`,
    );
    expect(message.status(), await message.text()).toBe(200);
    const { approvalId } = (await message.json()) as { approvalId: string };
    const decided = await post(
      decider,
      origin,
      `/api/external/change_requests/approvals/${approvalId}/action/`,
      { action: 'approve' },
    );
    if (decided.status !== 'PENDING') return;
  }
  throw new Error(`${entityId} is still waiting after ${deciders.length} approvals`);
}

/** The worker's sub-organization, made by `admin` (signed in as an admin of the whole organization). */
export async function makeSubOrg(
  admin: APIRequestContext,
  origin: string,
  tag: string,
): Promise<WorldSubOrg> {
  const name = `Desk ${tag.toUpperCase()}`;
  const made = await post(admin, origin, '/api/console/sandbox/sub-orgs/', { name }, 201);
  return { id: String(made.id), name };
}

/** The most the sandbox holds a surge: a day; the run is far shorter. */
const HOLD_MS = 23 * 3_600_000;

/** The sub-organization's fee surge on each of `chains`, held until the run is long over. */
async function surgeFees(
  admin: APIRequestContext,
  origin: string,
  subOrgId: string,
  chains: readonly string[],
  surge: { factor: string; steady: boolean },
): Promise<void> {
  const until = new Date(Date.now() + HOLD_MS).toISOString();
  await Promise.all(
    chains.map((chain) =>
      post(admin, origin, `/api/console/sandbox/sub-orgs/${subOrgId}/fee-surge/`, {
        chain,
        until,
        ...surge,
      }),
    ),
  );
}

/**
 * The sub-organization's fee estimates on `chains` held at the calm market
 * times `factor` (a steady surge), until the run is long over.
 */
export function holdFeesCalm(
  admin: APIRequestContext,
  origin: string,
  subOrgId: string,
  factor = '1',
  chains: readonly string[] = CHAINS.map((c) => c.value),
): Promise<void> {
  return surgeFees(admin, origin, subOrgId, chains, { factor, steady: true });
}

/**
 * The sub-organization's fee estimates on `chains` following the chain's own
 * market again, as the fee charged at signing does (a story that compares
 * the two); `holdFeesCalm` puts the hold back.
 */
export function followFeeMarket(
  admin: APIRequestContext,
  origin: string,
  subOrgId: string,
  chains: readonly string[],
): Promise<void> {
  return surgeFees(admin, origin, subOrgId, chains, { factor: '1', steady: false });
}

export async function makeWorkerWorld(options: {
  /** Signed in as an admin of the sub-organization. */
  admin: APIRequestContext;
  /** Signed in as members who may approve, none of them `admin`. */
  deciders: readonly APIRequestContext[];
  origin: string;
  tag: string;
  subOrg: WorldSubOrg;
}): Promise<WorkerWorld> {
  const { admin, deciders, origin, subOrg } = options;
  const tag = options.tag.toUpperCase();
  const subOrgId = subOrg.id;

  const vault = async (name: string): Promise<WorldVault> => {
    const made = await post(admin, origin, '/api/external/vaults/', { vaultName: name, subOrgId });
    const id = String(made.id);
    await approve(id, deciders, origin);
    return { id, name };
  };
  // What does not wait on another part is made at once: on a loaded machine each answer waits its
  // turn at the server, and chains of them one after another took a worker a minute or more.
  const [funded, empty] = await Promise.all([vault(`Funded ${tag}`), vault(`Empty ${tag}`)]);
  const deposits = async () => {
    for (const deposit of FUNDS)
      await post(admin, origin, `/api/console/sandbox/vaults/${funded.id}/deposits/`, deposit, 201);
  };

  const contact = async (
    name: string,
    blockChain: 'ETHEREUM' | 'TRON',
    assetList: string[],
  ): Promise<WorldContact> => {
    const address = freshAddress(blockChain);
    const made = await post(admin, origin, '/api/external/contacts/', {
      name,
      blockChain,
      address,
      assetList,
      subOrgId,
    });
    const id = String(made.id);
    await approve(id, deciders, origin);
    return { id, name, address: String(made.address ?? address) };
  };
  const payee = async (): Promise<WorldBankAccount> => {
    const accountName = `Payee ${tag}`;
    const account = await post(admin, origin, '/api/external/bank_accounts/', {
      paymentMethod: 'US_ACH',
      accountName,
      // Twelve digits no other worker's account shares (the server warns of a duplicate).
      accountNumber: String(100_000_000_000 + (randomBytes(5).readUIntBE(0, 5) % 899_999_999_999)),
      routingNumber: '021000021',
      bankName: 'JPMorgan Chase Bank',
      country: 'US',
      subOrgId,
    });
    const id = String(account.id);
    await approve(id, deciders, origin);
    return { id, accountName };
  };
  const [, , ethereum, tron, bankAccount] = await Promise.all([
    holdFeesCalm(admin, origin, subOrgId),
    deposits(),
    contact(`Ethereum desk ${tag}`, 'ETHEREUM', ['ETH', 'USDC']),
    contact(`Tron lessee ${tag}`, 'TRON', ['TRX']),
    payee(),
  ]);
  return { tag, subOrg, funded, empty, ethereum, tron, bankAccount };
}
