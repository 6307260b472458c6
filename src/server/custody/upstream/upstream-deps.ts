import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ListEnvelope, Page, PageRequest } from '#contract/common.ts';
import { toQueryString } from '#contract/paths.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { CustodyContext, ScopeFilter } from '../backend.ts';
import type { BankAccountFingerprint } from './bank-account-fingerprint.ts';
import { filteredPage } from './filtered-pages.ts';
import { UpstreamFailure, type UpstreamClient, type UpstreamRequest } from './upstream-client.ts';

/**
 * What every capability's upstream implementation gets from the composite
 * (`upstream-backend.ts`): `capabilities/<c>/upstream/index.ts` exports
 * `<c>Upstream(deps: UpstreamDeps)`, answering its port over these calls.
 */
export interface UpstreamDeps {
  /** The console's database: creator records and approval ids (creators.store.ts). */
  db: Database;
  clock: Clock;
  client: UpstreamClient;
  /** The API user's key: it signs approval messages. Never logged. */
  privateKey: KeyObject;
  /** Names a bank-account proposal before it is sent (bank-account-fingerprint.ts). */
  fingerprint: BankAccountFingerprint;
  /** One call, its answer checked against the contract; a shape we cannot read is a 502. */
  call<S extends z.core.$ZodType>(
    ctx: CustodyContext,
    schema: S,
    request: Omit<UpstreamRequest, 'requestId'>,
  ): Promise<z.output<S>>;
  /** A GET, retried. */
  read<S extends z.core.$ZodType>(
    ctx: CustodyContext,
    schema: S,
    path: string,
  ): Promise<z.output<S>>;
  /** One page of an upstream list with these filters. */
  listPage<T>(
    ctx: CustodyContext,
    schema: z.core.$ZodType<ListEnvelope<T>>,
    path: string,
    query: Query,
    page: PageRequest,
  ): Promise<Page<T>>;
  /**
   * A list held to sub-orgs: upstream filters one sub-org itself where the
   * endpoint takes `subOrgId` (`upstreamFiltersSubOrg`); several, or
   * endpoints without the filter, are filtered here page by page
   * (filtered-pages.ts).
   */
  scopedList<T extends { subOrgId?: string | null | undefined }>(
    ctx: CustodyContext,
    schema: z.core.$ZodType<ListEnvelope<T>>,
    path: string,
    q: PageRequest & ScopeFilter,
    upstreamFiltersSubOrg: boolean,
  ): Promise<Page<T>>;
  /**
   * A create whose answer was lost may still have happened upstream: look it
   * up before anyone tries again, and answer it if it exists. When it does
   * not, the 502/504 says that sending again is safe (the externalId stops a
   * second create either way).
   */
  unknownOutcome<T extends { id?: string | undefined }>(
    ctx: CustodyContext,
    failure: UpstreamFailure,
    what: string,
    find: () => Promise<T | undefined>,
  ): Promise<T>;
}

type Query = Record<string, string | number | null | undefined>;

/** The staff member acting, if any: the console records what members create (four-eyes). */
export function staffId(ctx: CustodyContext): string | undefined {
  return ctx.actor?.type === 'STAFF' ? ctx.actor.id : undefined;
}

type UpstreamBase = Pick<UpstreamDeps, 'db' | 'clock' | 'client' | 'privateKey' | 'fingerprint'>;

/** The calls every capability makes, over one client. */
export function upstreamDeps(base: UpstreamBase, logger?: Logger): UpstreamDeps {
  const { client } = base;

  const call: UpstreamDeps['call'] = async (ctx, schema, request) => {
    const answer = await client.send({ ...request, requestId: ctx.requestId });
    const parsed = z.safeParse(schema, answer);
    if (!parsed.success) {
      throw new UpstreamFailure(
        'unavailable',
        `The custody API at ${client.host} answered ${request.method} ${request.path.split('?')[0]} with an unexpected shape`,
        ctx.requestId,
      );
    }
    return parsed.data;
  };

  const read: UpstreamDeps['read'] = (ctx, schema, path) =>
    call(ctx, schema, { method: 'GET', path, retry: true });

  const listPage: UpstreamDeps['listPage'] = async (ctx, schema, path, query, page) => {
    const body = await read(
      ctx,
      schema,
      `${path}${toQueryString({ ...query, limit: page.limit, cursor: page.cursor })}`,
    );
    const nextCursor = body.nextCursor ?? null;
    // A numbered page (the older SDKs' getVaults) is answered with how many match: kept, as
    // the client reads it. A page filtered here (filteredPage) is a new page and drops it.
    const { count } = body as { count?: unknown };
    return {
      results: body.results,
      nextCursor,
      hasNext: body.hasNext ?? nextCursor !== null,
      ...(typeof count === 'number' ? { count } : {}),
    };
  };

  const scopedList: UpstreamDeps['scopedList'] = async (
    ctx,
    schema,
    path,
    q,
    upstreamFiltersSubOrg,
  ) => {
    const { limit, cursor, subOrgIds, subOrgId, ...rest } = q;
    const filters = rest as Query;
    const wanted = subOrgIds ?? (subOrgId && !upstreamFiltersSubOrg ? [subOrgId] : undefined);
    if (!wanted) {
      return listPage(ctx, schema, path, { ...filters, subOrgId }, { limit, cursor });
    }
    return filteredPage(limit, cursor, wanted, (n, c) =>
      listPage(ctx, schema, path, filters, { limit: n, cursor: c }),
    );
  };

  const unknownOutcome: UpstreamDeps['unknownOutcome'] = async (ctx, failure, what, find) => {
    const said = failure.message.replace(/ \(request id .*\)$/, '');
    let found;
    try {
      found = await find();
    } catch {
      throw new UpstreamFailure(
        failure.reason,
        `${said}; whether the ${what} was created is not known yet. Look it up before sending it again`,
        ctx.requestId,
      );
    }
    if (found) {
      logger?.info({ reqId: ctx.requestId, id: found.id }, `lost ${what} answer reconciled`);
      return found;
    }
    throw new UpstreamFailure(
      failure.reason,
      `${said}; no such ${what} exists upstream, so sending it again is safe`,
      ctx.requestId,
    );
  };

  return { ...base, call, read, listPage, scopedList, unknownOutcome };
}
