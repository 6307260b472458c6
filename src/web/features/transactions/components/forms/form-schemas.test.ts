import { describe, expect, it } from 'vitest';
import {
  contractCallDefaults,
  contractCallFieldFor,
  contractCallFormSchema,
  type ContractCallFormValues,
} from './contract-call-schema.ts';
import {
  delegateResourceDefaults,
  delegateResourceFormSchema,
  type DelegateResourceFormValues,
} from './delegate-resource-schema.ts';
import { maxAmount, type FormContext } from './form-rules.ts';
import { stakeDefaults, stakeFormSchema, type StakeFormValues } from './stake-schema.ts';
import {
  transferDefaults,
  transferFieldFor,
  transferFormSchema,
  type TransferFormValues,
} from './transfer-schema.ts';

const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A message a person reads under a field: a capital first, a full stop (or ? ! …) last. */
function expectSentence(message: string | undefined) {
  expect(message, 'a sentence').toMatch(/^[A-Z0-9"].*[.?!…]$/s);
}

/** Each form field with a problem, and its message. */
function problems(
  schema: {
    safeParse: (v: unknown) => {
      success: boolean;
      error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
    };
  },
  values: unknown,
) {
  const result = schema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
}

describe('transfer form schema', () => {
  const valid = (over: Partial<TransferFormValues> = {}): TransferFormValues => ({
    ...transferDefaults(),
    sourceVaultId: 'vault-a',
    blockChain: 'ETHEREUM',
    asset: 'ETH',
    destinationContactId: 'contact-1',
    amount: '1.5',
    ...over,
  });
  const ctx: FormContext = { decimals: 6, balance: '10', feeInAsset: '0.5' };

  it('turns valid values into the contract request, MEDIUM by default, with the externalId', () => {
    const result = transferFormSchema(ctx).safeParse(valid({ memo: ' rent ' }));
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: 'vault-a' },
      destination: { type: 'CONTACT', id: 'contact-1' },
      amount: '1.5',
      memo: 'rent',
      gasParams: { feeTier: 'MEDIUM' },
      externalId: expect.stringMatching(/^console-/),
    });
    const external = transferFormSchema().safeParse(
      valid({
        destinationKind: 'EXTERNAL_ADDRESS',
        destinationAddress: ETH_ADDRESS,
        feeTier: 'LOW',
      }),
    );
    expect(external.data).toMatchObject({
      destination: { type: 'EXTERNAL_ADDRESS', id: ETH_ADDRESS },
      gasParams: { feeTier: 'LOW' },
    });
  });

  it.each<[string, Partial<TransferFormValues>, keyof TransferFormValues, RegExp]>([
    ['no source vault', { sourceVaultId: '' }, 'sourceVaultId', /^Choose the vault/],
    ['no chain', { blockChain: '' }, 'blockChain', /^Choose a chain\./],
    ['no asset', { asset: '' }, 'asset', /^Choose an asset\./],
    ['no contact', { destinationContactId: '' }, 'destinationContactId', /approved contact/],
    [
      'the source as destination',
      { destinationKind: 'VAULT', destinationVaultId: 'vault-a' },
      'destinationVaultId',
      /other than the source/,
    ],
    [
      'a malformed address',
      { destinationKind: 'EXTERNAL_ADDRESS', destinationAddress: '0x12' },
      'destinationAddress',
      /0x followed by 40/,
    ],
    ['a negative amount', { amount: '-1' }, 'amount', /^Enter an amount above zero, like 12\.5\.$/],
    ['zero', { amount: '0' }, 'amount', /^Enter an amount above zero/],
    [
      'too many decimals',
      { amount: '1.1234567' },
      'amount',
      /^The amount may have at most 6 decimal places for this asset\.$/,
    ],
    [
      'more than the balance less the fee',
      { amount: '9.6' },
      'amount',
      /^The amount is more than the vault holds: 9\.6 plus the 0\.5 fee exceeds the balance of 10\.$/,
    ],
    ['a memo too long', { memo: 'x'.repeat(501) }, 'memo', /^The memo must be at most 500/],
    ['no externalId', { externalId: ' ' }, 'externalId', /^Keep an external ID/],
    [
      'an externalId too long',
      { externalId: 'x'.repeat(129) },
      'externalId',
      /^The external ID must be at most 128/,
    ],
    [
      'a fee payer where the chain has none',
      { feePayerVaultId: 'vault-b' },
      'feePayerVaultId',
      /does not let another vault/,
    ],
  ])('refuses %s on its field, in a sentence', (_, over, field, message) => {
    const said = problems(transferFormSchema(ctx), valid(over))[field];
    expect(said).toMatch(message);
    expectSentence(said);
  });

  it('refuses a mixed-case address whose EIP-55 checksum fails; one case throughout is fine', () => {
    const broken = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const external = (destinationAddress: string) =>
      valid({ destinationKind: 'EXTERNAL_ADDRESS', destinationAddress });
    expect(problems(transferFormSchema(ctx), external(broken)).destinationAddress).toMatch(
      /EIP-55 checksum/,
    );
    expect(transferFormSchema(ctx).safeParse(external(broken.toLowerCase())).success).toBe(true);
    expect(
      transferFormSchema(ctx).safeParse(external(`0x${broken.slice(2).toUpperCase()}`)).success,
    ).toBe(true);
  });

  it("refuses the source vault's own address typed as an external one", () => {
    const own = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
    const withOwn: FormContext = { ...ctx, sourceAddress: own };
    expect(
      problems(
        transferFormSchema(withOwn),
        valid({
          destinationKind: 'EXTERNAL_ADDRESS',
          destinationAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        }),
      ).destinationAddress,
    ).toMatch(/source vault's own address/);
  });

  it('allows exactly the balance less the fee; "max" is that, at the asset precision', () => {
    expect(transferFormSchema(ctx).safeParse(valid({ amount: '9.5' })).success).toBe(true);
    expect(maxAmount(ctx)).toBe('9.5');
    expect(maxAmount({ balance: '1.123456789', decimals: 6 })).toBe('1.123456');
    expect(maxAmount({ balance: '0.1', feeInAsset: '0.2' })).toBe('0');
  });

  it('puts a server field on the form field it names', () => {
    expect(transferFieldFor('destination.id', { destinationKind: 'VAULT' })).toBe(
      'destinationVaultId',
    );
    expect(transferFieldFor('feePayer.id', { destinationKind: 'CONTACT' })).toBe('feePayerVaultId');
    expect(transferFieldFor('source.type', { destinationKind: 'CONTACT' })).toBe('sourceVaultId');
    expect(transferFieldFor('colour', { destinationKind: 'CONTACT' })).toBeUndefined();
  });
});

describe('stake form schema', () => {
  const valid = (over: Partial<StakeFormValues> = {}): StakeFormValues => ({
    ...stakeDefaults(),
    sourceVaultId: 'vault-a',
    blockChain: 'TRON',
    asset: 'TRX',
    amount: '100',
    ...over,
  });

  it('makes a STAKE request, with a resource type on TRON', () => {
    const result = stakeFormSchema().safeParse(valid({ resourceType: 'TRON_ENERGY' }));
    expect(result.data).toMatchObject({
      category: 'STAKE',
      resourceType: 'TRON_ENERGY',
      asset: 'TRX',
    });
    expect(
      stakeFormSchema().safeParse(valid({ blockChain: 'ETHEREUM', asset: 'ETH' })).success,
    ).toBe(true);
  });

  it.each<[string, Partial<StakeFormValues>, keyof StakeFormValues, RegExp]>([
    ['no vault', { sourceVaultId: '' }, 'sourceVaultId', /^Choose the vault/],
    [
      'a chain without staking',
      { blockChain: 'BITCOIN', asset: 'BTC' },
      'blockChain',
      /not offered on Bitcoin/,
    ],
    ['a token', { asset: 'USDT' }, 'asset', /uses TRX/],
    [
      'a resource off TRON',
      { blockChain: 'ETHEREUM', asset: 'ETH', resourceType: 'TRON_ENERGY' },
      'resourceType',
      /no TRON resources/,
    ],
    ['a bad amount', { amount: '1,5' }, 'amount', /^Enter an amount above zero/],
    [
      'more than the balance',
      { amount: '11' },
      'amount',
      /^The amount is more than the vault holds: the balance is 10\.$/,
    ],
    ['no externalId', { externalId: '' }, 'externalId', /^Keep an external ID/],
  ])('refuses %s on its field, in a sentence', (_, over, field, message) => {
    const said = problems(stakeFormSchema({ balance: '10' }), valid(over))[field];
    expect(said).toMatch(message);
    expectSentence(said);
  });
});

describe('stake form schema, unstaking', () => {
  const unstake = (over: Partial<StakeFormValues> = {}): StakeFormValues => ({
    ...stakeDefaults(),
    action: 'UNSTAKE',
    sourceVaultId: 'vault-a',
    blockChain: 'TRON',
    asset: 'TRX',
    resourceType: 'TRON_ENERGY',
    amount: '40',
    ...over,
  });

  it('makes a STAKE request of sub-category UNSTAKE', () => {
    expect(stakeFormSchema({ staked: '90' }).safeParse(unstake()).data).toMatchObject({
      category: 'STAKE',
      subCategory: 'UNSTAKE',
      resourceType: 'TRON_ENERGY',
      amount: '40',
    });
    // A stake sends no sub-category: the description's body has none.
    expect(stakeFormSchema().safeParse(unstake({ action: 'STAKE' })).data).not.toHaveProperty(
      'subCategory',
    );
  });

  it('refuses more than is staked on the amount, in a sentence, whatever the balance', () => {
    const said = problems(
      stakeFormSchema({ staked: '90', balance: '1000' }),
      unstake({ amount: '90.5' }),
    ).amount;
    expect(said).toBe('The amount is more than the vault has staked: 90 is staked.');
    expectSentence(said);
    expect(stakeFormSchema({ staked: '90' }).safeParse(unstake({ amount: '90' })).success).toBe(
      true,
    );
  });
});

describe('delegate resource form schema', () => {
  const valid = (over: Partial<DelegateResourceFormValues> = {}): DelegateResourceFormValues => ({
    ...delegateResourceDefaults(),
    sourceVaultId: 'vault-a',
    destinationContactId: 'contact-tron',
    amount: '10',
    resourceType: 'TRON_BANDWIDTH',
    ...over,
  });

  it('makes a DELEGATE_RESOURCE request on TRON', () => {
    expect(delegateResourceFormSchema().safeParse(valid()).data).toMatchObject({
      category: 'DELEGATE_RESOURCE',
      blockChain: 'TRON',
      asset: 'TRX',
      destination: { type: 'CONTACT', id: 'contact-tron' },
      resourceType: 'TRON_BANDWIDTH',
    });
  });

  it.each<[string, Partial<DelegateResourceFormValues>, keyof DelegateResourceFormValues, RegExp]>([
    ['no resource type', { resourceType: '' }, 'resourceType', /bandwidth or energy/],
    [
      'a chain other than Tron',
      { blockChain: 'ETHEREUM', asset: 'ETH' },
      'blockChain',
      /only on Tron/,
    ],
    ['no destination', { destinationContactId: '' }, 'destinationContactId', /approved contact/],
    [
      'a malformed Tron address',
      { destinationKind: 'EXTERNAL_ADDRESS', destinationAddress: ETH_ADDRESS },
      'destinationAddress',
      /T followed by 33/,
    ],
    [
      'too many decimals',
      { amount: '1.1234567' },
      'amount',
      /^The amount may have at most 6 decimal places for this asset\.$/,
    ],
  ])('refuses %s on its field, in a sentence', (_, over, field, message) => {
    const said = problems(delegateResourceFormSchema({ decimals: 6 }), valid(over))[field];
    expect(said).toMatch(message);
    expectSentence(said);
  });
});

describe('contract call form schema', () => {
  const valid = (over: Partial<ContractCallFormValues> = {}): ContractCallFormValues => ({
    ...contractCallDefaults(),
    vaultId: 'vault-a',
    blockChain: 'ETHEREUM',
    callData: '0xa9059cbb',
    ...over,
  });

  it('sends the data variant of the chain, the amount only when given, and the skip flag', () => {
    expect(contractCallFormSchema().safeParse(valid({ toAddress: ETH_ADDRESS })).data).toEqual({
      category: 'CONTRACT_CALL',
      vaultId: 'vault-a',
      blockChain: 'ETHEREUM',
      data: { callData: '0xa9059cbb', toAddress: ETH_ADDRESS },
      externalId: expect.stringMatching(/^console-/),
      gasParams: { feeTier: 'MEDIUM' },
    });
    const tron = contractCallFormSchema().safeParse(
      valid({ blockChain: 'TRON', method: 'vote', params: '{"sr": "T1"}', amount: '2' }),
    );
    expect(tron.data).toMatchObject({
      data: { method: 'vote', params: { sr: 'T1' } },
      amount: '2',
    });
    const icp = contractCallFormSchema().safeParse(
      valid({
        blockChain: 'ICP',
        canisterId: 'ryjl3-tyaaa-aaaaa-aaaba-cai',
        method: 'transfer',
        arg: '()',
      }),
    );
    expect(icp.data).toMatchObject({
      data: { canisterId: 'ryjl3-tyaaa-aaaaa-aaaba-cai', method: 'transfer', arg: '()' },
    });
    const solana = contractCallFormSchema().safeParse(
      valid({ blockChain: 'SOLANA', messageHex: 'c0ffee' }),
    );
    expect(solana.data).toMatchObject({ data: { messageHex: 'c0ffee' } });
    const skipped = contractCallFormSchema().safeParse(
      valid({ skipSimulation: true, skipReason: 'simulator outage, ticket 4411' }),
    );
    expect(skipped.data).toMatchObject({ creationOptions: { skipPreprocessSimulation: true } });
  });

  it.each<[string, Partial<ContractCallFormValues>, keyof ContractCallFormValues, RegExp]>([
    ['no vault', { vaultId: '' }, 'vaultId', /^Choose the vault/],
    [
      'a chain without contract calls',
      { blockChain: 'BITCOIN' },
      'blockChain',
      /runs no contract calls/,
    ],
    ['no call data', { callData: '' }, 'callData', /^Enter the call data\.$/],
    [
      'call data that is not hex',
      { callData: '0xzz' },
      'callData',
      /^Enter hex bytes \(pairs of 0–9 and a–f\)/,
    ],
    ['a malformed contract address', { toAddress: '0x1' }, 'toAddress', /0x followed by 40/],
    [
      'an ICP call without canister',
      { blockChain: 'ICP', method: 'm' },
      'canisterId',
      /canister id/,
    ],
    [
      'a Solana message that is not hex',
      { blockChain: 'SOLANA', messageHex: 'xyz' },
      'messageHex',
      /hex bytes/,
    ],
    [
      'params that are not JSON',
      { blockChain: 'TRON', method: 'vote', params: '{sr:' },
      'params',
      /^Not valid JSON/,
    ],
    [
      'params that are a list',
      { blockChain: 'TRON', method: 'vote', params: '[1]' },
      'params',
      /JSON object/,
    ],
    [
      'a skip without a reason',
      { skipSimulation: true, skipReason: 'because' },
      'skipReason',
      /at least 10 characters/,
    ],
    ['a bad amount', { amount: '0' }, 'amount', /^Enter an amount above zero/],
    ['no externalId', { externalId: '' }, 'externalId', /^Keep an external ID/],
  ])('refuses %s on its field, in a sentence', (_, over, field, message) => {
    const said = problems(contractCallFormSchema(), valid(over))[field];
    expect(said).toMatch(message);
    expectSentence(said);
  });

  it('puts server fields about data on the variant field', () => {
    expect(contractCallFieldFor('data', { blockChain: 'ETHEREUM' })).toBe('callData');
    expect(contractCallFieldFor('data.params', { blockChain: 'TRON' })).toBe('params');
    expect(contractCallFieldFor('creationOptions', { blockChain: 'TRON' })).toBe('skipSimulation');
  });
});

describe('a form opens on the middle fee tier', () => {
  it('every create form starts at MEDIUM, not the most expensive tier', () => {
    // The member chooses to pay for speed; nobody pays the highest fee by default.
    expect(transferDefaults().feeTier).toBe('MEDIUM');
    expect(contractCallDefaults().feeTier).toBe('MEDIUM');
    expect(stakeDefaults().feeTier).toBe('MEDIUM');
    expect(delegateResourceDefaults().feeTier).toBe('MEDIUM');
  });
});
