/**
 * The periods the ledger's history answers, in days back from today (UTC
 * days). Apart from ledger.ts so the ledger page's search rules, which the
 * route tree holds in every page's first load, bring no answer schema.
 */
export const LEDGER_HISTORY_DAYS = ['7', '30', '90', '365'] as const;
