import type { RampKind, RampRequote } from '#contract/ramp-record.ts';
import { readPlan, type SimulationPlan } from '../../../custody/sandbox/engine/plan.ts';

/** The quote a person last accepted: what a re-quote's rate is judged against. */
export interface AcceptedQuote {
  quoteId: string;
  rate: string;
  finalToAmount?: string | undefined;
}

export interface RampPlan extends SimulationPlan {
  ramp: {
    kind: RampKind;
    provider: string;
    completionSeconds: number;
    /** Set when the provider will fail the trade: the transaction's `error`. */
    fail?: string;
    /** When the payer said the deposit is on its way (on-ramp, FX). */
    depositMarkedAt?: string;
    /**
     * How far (percent) a re-quote's rate may move from the accepted quote's
     * before an approver must accept it: the console's setting when the ramp
     * was made, so the simulator's thread needs no configuration of its own.
     */
    rateTolerancePercent?: string;
    /** Absent until the quote is first priced again: the initiator's quote. */
    accepted?: AcceptedQuote;
    /** Each re-quote, oldest first. */
    requotes?: RampRequote[];
  };
}

export function readRampPlan(value: unknown): RampPlan | null {
  const plan = readPlan(value) as RampPlan | null;
  return plan && typeof plan.ramp === 'object' && plan.ramp !== null ? plan : null;
}
