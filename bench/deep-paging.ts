import type http from 'node:http';
import { paths, toQueryString } from '../src/contract/paths.ts';
import { median } from './load.ts';
import { benchRowTime, type InsertPlan } from './million-rows.ts';
import { callJson, type BenchSession } from './session.ts';

/**
 * First page versus a page deep into a million transactions, through the
 * API as a client pages it. The deep position is reached the way a client
 * can reach it without walking 45,000 pages: a createdAtLte boundary at bench
 * row `depth`, then the nextCursor that page hands back. Keyset paging is
 * an index range scan from the cursor, so both should cost the same.
 */

interface Page {
  results: Array<{ id: string }>;
  nextCursor?: string | null;
}

export interface Timing {
  medianMs: number;
  runs: number;
}

export interface DeepPagingResult {
  /** Bench row the deep page starts after (1 = newest bench row). */
  depth: number;
  /** The deep page held exactly the rows expected at that position. */
  positionVerified: boolean;
  firstPage: Timing;
  deepPageByCursor: Timing;
  deepPageByCreatedAtLte: Timing;
  /** Following nextCursor page after page, from the top and from the deep position. */
  walkFromTop: Timing;
  walkFromDeep: Timing;
  /** deepPageByCursor / firstPage: ≈ 1 when paging is flat. */
  ratio: number;
}

const benchId = (g: number) => `bench-${String(g).padStart(8, '0')}`;

export async function measureDeepPaging(
  agent: http.Agent,
  session: BenchSession,
  plan: InsertPlan,
  options: { runs: number; walkPages: number; depthFraction: number },
): Promise<DeepPagingResult> {
  const list = (query: Record<string, string | number | undefined>) =>
    callJson<Page>(agent, session, {
      method: 'GET',
      path: `${paths.transactions()}${toQueryString({ limit: 20, ...query })}`,
    });

  const depth = Math.floor(plan.count * options.depthFraction);
  const boundary = benchRowTime(plan, depth).toISOString();
  const atBoundary = await list({ createdAtLte: boundary });
  const cursor = atBoundary.body.nextCursor;
  if (!cursor) throw new Error(`no next page after bench row ${depth}`);
  const deep = await list({ cursor });
  const expected = Array.from({ length: 20 }, (_, k) => benchId(depth + 20 + k));
  const positionVerified =
    atBoundary.body.results[0]?.id === benchId(depth) &&
    deep.body.results.every((r, k) => r.id === expected[k]);

  // Interleaved, so drift in the machine's load touches every series alike.
  const first: number[] = [];
  const byCursor: number[] = [];
  const byBoundary: number[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    first.push((await list({})).ms);
    byCursor.push((await list({ cursor })).ms);
    byBoundary.push((await list({ createdAtLte: boundary })).ms);
  }

  const walk = async (start: string | undefined) => {
    const times: number[] = [];
    let next = start;
    for (let page = 0; page < options.walkPages; page += 1) {
      const answer = await list(next ? { cursor: next } : {});
      times.push(answer.ms);
      next = answer.body.nextCursor ?? undefined;
      if (!next) break;
    }
    return { medianMs: median(times), runs: times.length };
  };

  const firstMedian = median(first);
  const cursorMedian = median(byCursor);
  return {
    depth,
    positionVerified,
    firstPage: { medianMs: firstMedian, runs: first.length },
    deepPageByCursor: { medianMs: cursorMedian, runs: byCursor.length },
    deepPageByCreatedAtLte: { medianMs: median(byBoundary), runs: byBoundary.length },
    walkFromTop: await walk(undefined),
    walkFromDeep: await walk(cursor),
    ratio: cursorMedian / firstMedian,
  };
}
