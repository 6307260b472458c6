import { endpoint } from '../endpoint.ts';
import { SubOrg } from '../reference.ts';
import {
  SandboxDepositRequest,
  SandboxExpireQuoteRequest,
  SandboxFeeSurge,
  SandboxFeeSurgeRequest,
  SandboxStakingEpochs,
  SandboxStakingEpochsRequest,
  SandboxSubOrgRequest,
} from '../sandbox-world.ts';
import { Transaction } from '../transaction-record.ts';

/**
 * The sandbox's tools for making a world to work in (server/capabilities/
 * sandbox-world/): an admin's only, refused with 409 when the console acts
 * on an upstream custody service, where sub-organizations and money are the
 * provider's to make.
 */

export const createSandboxSubOrg = endpoint({
  method: 'POST',
  path: '/api/console/sandbox/sub-orgs/',
  summary:
    'Sandbox only: creates a sub-organization of the organization. Only an admin of every sub-organization may.',
  action: 'make sandbox sub-organizations',
  permission: 'admin',
  audit: { action: 'sandbox.sub_org.create', entityType: 'SUB_ORG' },
  body: SandboxSubOrgRequest,
  answer: SubOrg,
  status: 201,
});

export const depositToSandboxVault = endpoint({
  method: 'POST',
  path: '/api/console/sandbox/vaults/:vaultId/deposits/',
  summary:
    'Sandbox only: money arrives in the vault from outside, recorded as a completed incoming transfer that credits its balance.',
  action: 'deposit into sandbox vaults',
  permission: 'admin',
  audit: { action: 'sandbox.deposit', entityType: 'VAULT', entityParam: 'vaultId' },
  resource: 'vault',
  body: SandboxDepositRequest,
  answer: Transaction,
  status: 201,
});

export const expireSandboxRampQuote = endpoint({
  method: 'POST',
  path: '/api/console/sandbox/transactions/:transactionId/expire-quote/',
  summary:
    "Sandbox only: a PENDING ramp's quote expires now (or in `inSeconds`), so the re-quote at its next approval can be tried without waiting out the quote's 60 s.",
  action: 'expire sandbox ramp quotes',
  permission: 'admin',
  audit: {
    action: 'sandbox.ramp_quote.expire',
    entityType: 'TRANSACTION',
    entityParam: 'transactionId',
  },
  resource: 'transaction',
  body: SandboxExpireQuoteRequest,
  answer: Transaction,
});

export const surgeSandboxFees = endpoint({
  method: 'POST',
  path: '/api/console/sandbox/sub-orgs/:subOrgId/fee-surge/',
  summary:
    'Sandbox only: the fee market of one chain multiplied for the items of one sub-organization until a time, so a fee can rise past what an approver signed without moving any other sub-organization’s fees.',
  action: 'surge sandbox fees',
  permission: 'admin',
  audit: { action: 'sandbox.fee_surge', entityType: 'SUB_ORG', entityParam: 'subOrgId' },
  body: SandboxFeeSurgeRequest,
  answer: SandboxFeeSurge,
});

export const passSandboxStakingEpochs = endpoint({
  method: 'POST',
  path: '/api/console/sandbox/vaults/:vaultId/staking-epochs/',
  summary:
    'Sandbox only: a vault’s stake on a chain that has earned nothing yet is moved a number of epochs into the past, and the epochs that thereby ended are paid at once as REWARD movements, each dated at its end, so a reward can be seen without waiting for an epoch to end.',
  action: 'pass sandbox staking epochs',
  permission: 'admin',
  audit: { action: 'sandbox.staking_epochs', entityType: 'VAULT', entityParam: 'vaultId' },
  resource: 'vault',
  body: SandboxStakingEpochsRequest,
  answer: SandboxStakingEpochs,
});
