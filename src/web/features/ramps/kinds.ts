import { RAMP_KINDS, type RampKind } from '#contract/ramp-record.ts';

/** What the Convert page converts: the three ramps, and a swap of one asset a vault holds into another. */
export const CONVERT_KINDS = [...RAMP_KINDS, 'SWAP'] as const;
export type ConvertKind = (typeof CONVERT_KINDS)[number];

/** The four conversions, as the Convert page names them. */
export const KIND_LABELS: Record<ConvertKind, string> = {
  OFF_RAMP: 'Off-ramp',
  ON_RAMP: 'On-ramp',
  FX: 'FX',
  SWAP: 'Swap',
};

export const KIND_TITLES: Record<RampKind, string> = {
  OFF_RAMP: 'Off-ramp: a digital asset to a bank account',
  ON_RAMP: 'On-ramp: money from your bank to a vault',
  FX: 'FX: money from your bank to an account in another currency',
};
