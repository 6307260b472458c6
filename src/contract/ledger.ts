import * as z from 'zod/mini';

/**
 * The treasury ledger: every change to a vault's balance as one append-only
 * movement, the balance history built from them, and statements that
 * reconcile. Amounts are decimal strings, signed: a debit is negative.
 *
 * - AMOUNT: value moved by a transfer, ramp, swap or deposit.
 * - FEE: a network or provider fee, a movement of its own (always a debit).
 * - REWARD: staking income.
 * - ADJUSTMENT: a balance the ledger did not see arrive (a vault's opening
 *   balance), or a late arrival for a closed period.
 */
export const LEDGER_MOVEMENT_KINDS = ['AMOUNT', 'FEE', 'REWARD', 'ADJUSTMENT'] as const;
export const LedgerMovementKind = z.enum(LEDGER_MOVEMENT_KINDS);
export type LedgerMovementKind = z.infer<typeof LedgerMovementKind>;
