import { cmp } from '#contract/decimal.ts';

/**
 * Fee surges set by hand (the sandbox's `POST /api/console/sandbox/sub-orgs/
 * {id}/fee-surge/`): the fee market of one chain multiplied for the items of
 * one sub-organization until a time. The market itself follows the real
 * clock (fee-model.ts), so a story that needs a fee to rise past what was
 * signed would otherwise wait for congestion and move every other story's
 * fees with it. Held by this server process, in memory: a sandbox tool for
 * stories and demos, gone with a restart, and read by this process's fee
 * estimates (what an approval card's fee ceiling is judged by); the fee
 * charged at signing follows the chain's own market.
 */

export interface FeeSurge {
  subOrgId: string;
  chain: string;
  /** The multiplier of the market's price, a decimal string. */
  factor: string;
  /** Of the chain's calm market (no congestion, no jitter), so the estimate holds still. */
  steady: boolean;
  until: Date;
}

/** What an estimate multiplies the market by: `factor`, of the calm market when `steady`. */
export type SurgeInForce = Pick<FeeSurge, 'factor' | 'steady'>;

export interface FeeSurges {
  /**
   * Sets (or replaces) the surge of the sub-organization's chain; a factor of 1
   * ends it, unless steady (the calm market held).
   */
  set(orgId: string, surge: FeeSurge): void;
  /** The surge in force for an item of `subOrgId` on `chain` at `now`; undefined for none. */
  surgeFor(
    orgId: string,
    subOrgId: string | null,
    chain: string,
    now: Date,
  ): SurgeInForce | undefined;
}

export function createFeeSurges(): FeeSurges {
  const surges = new Map<string, FeeSurge>();
  const key = (orgId: string, subOrgId: string, chain: string) =>
    JSON.stringify([orgId, subOrgId, chain]);
  return {
    set(orgId, surge) {
      const at = key(orgId, surge.subOrgId, surge.chain);
      if (cmp(surge.factor, '1') === 0 && !surge.steady) surges.delete(at);
      else surges.set(at, surge);
    },
    surgeFor(orgId, subOrgId, chain, now) {
      if (subOrgId === null) return undefined;
      const at = key(orgId, subOrgId, chain);
      const surge = surges.get(at);
      if (!surge) return undefined;
      if (surge.until.getTime() <= now.getTime()) {
        // Over: forgotten, so the map holds only surges in force.
        surges.delete(at);
        return undefined;
      }
      return { factor: surge.factor, steady: surge.steady };
    },
  };
}
