import type { RampKind } from '#contract/ramp-record.ts';

/** The three conversions, as the Convert page names them. */
export const KIND_LABELS: Record<RampKind, string> = {
  OFF_RAMP: 'Off-ramp',
  ON_RAMP: 'On-ramp',
  FX: 'FX',
};

export const KIND_TITLES: Record<RampKind, string> = {
  OFF_RAMP: 'Off-ramp: a digital asset to a bank account',
  ON_RAMP: 'On-ramp: money from your bank to a vault',
  FX: 'FX: money from your bank to an account in another currency',
};
