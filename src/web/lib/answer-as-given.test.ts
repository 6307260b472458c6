import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { getPolicies } from '#contract/endpoints/policies.ts';
import { listAssets, listSubOrgs, listVaults } from '#contract/endpoints/reference.ts';
import { currentSession } from '#contract/endpoints/session-state.ts';
import { listTransactions } from '#contract/endpoints/transaction-list.ts';
import { parsesAsGiven } from './answer-as-given.ts';

describe('parsesAsGiven', () => {
  it('holds for plain shapes, however nested', () => {
    const row = z.object({
      id: z.string(),
      amount: z.optional(z.nullable(z.string())),
      kind: z.union([z.literal('A'), z.enum(['B', 'C'])]),
      tags: z.array(z.string()),
      extra: z.record(z.string(), z.number()),
      pair: z.tuple([z.boolean(), z.int()]),
    });
    expect(parsesAsGiven(z.object({ results: z.array(row), next: z.nullable(z.string()) }))).toBe(
      true,
    );
  });

  it('fails for anything that changes what it checks, wherever it sits', () => {
    const changing = [
      z.pipe(
        z.string(),
        z.transform((s: string) => s.length),
      ),
      z._default(z.string(), 'x'),
      z.catch(z.string(), 'x'),
      z.string().check(z.trim()),
      z.string().check(z.toLowerCase()),
      z.coerce.number(),
    ];
    for (const inner of changing) {
      expect(parsesAsGiven(inner)).toBe(false);
      expect(parsesAsGiven(z.object({ a: z.array(z.optional(inner)) }))).toBe(false);
      expect(parsesAsGiven(z.union([z.null(), z.object({ b: inner })]))).toBe(false);
    }
  });

  it("holds for every answer /transactions reads, not for the policies' normalizing one", () => {
    for (const e of [listTransactions, listVaults, listAssets, listSubOrgs, currentSession]) {
      expect(parsesAsGiven(e.answer), e.path).toBe(true);
    }
    expect(parsesAsGiven(approvalInboxCount.answer)).toBe(true);
    // The policies' answer normalizes what it reads: always checked, so always normalized.
    expect(parsesAsGiven(getPolicies.answer)).toBe(false);
  });
});
