import { z } from 'zod';
import { AuditOutcome } from '../../../contract/auth.ts';
import { IsoTimestamp } from '../../../contract/common.ts';
import type { AuditListParams } from '../../lib/api-client.ts';
import { compact, cursorPageSearch } from '../../lib/paging.ts';

const text = (max: number) => z.string().trim().min(1).max(max).optional().catch(undefined);

/** `/audit` search params: the contract's AuditFilters, leniently (junk is dropped). */
export const AuditSearch = z.object({
  action: text(128),
  outcome: AuditOutcome.optional().catch(undefined),
  actorId: text(128),
  entityId: text(128),
  atGte: IsoTimestamp.optional().catch(undefined),
  atLte: IsoTimestamp.optional().catch(undefined),
  ...cursorPageSearch,
});
export type AuditSearch = z.output<typeof AuditSearch>;

export const AUDIT_SEARCH_FILTERS = [
  'action',
  'outcome',
  'actorId',
  'entityId',
  'atGte',
  'atLte',
] as const satisfies ReadonlyArray<keyof AuditSearch>;
export type AuditSearchFilters = Pick<AuditSearch, (typeof AUDIT_SEARCH_FILTERS)[number]>;

export function pickAuditFilters(search: AuditSearch): AuditSearchFilters {
  return compact(
    Object.fromEntries(AUDIT_SEARCH_FILTERS.map((key) => [key, search[key]])),
  ) as AuditSearchFilters;
}

export function toAuditListParams(search: AuditSearch): AuditListParams {
  return compact({ ...pickAuditFilters(search), cursor: search.cursor });
}

export function hasActiveAuditFilters(search: AuditSearch): boolean {
  return AUDIT_SEARCH_FILTERS.some((key) => search[key] !== undefined);
}

/** Applies filter changes; any change starts again from the first page. */
export function withAuditFilters(
  search: AuditSearch,
  patch: Partial<AuditSearchFilters>,
): AuditSearch {
  return compact({ ...search, ...patch, cursor: undefined, prev: undefined });
}
