import { describe, expect } from 'vitest';
import { ActivityEventListResponse } from '#contract/activity.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { Vault } from '#contract/reference.ts';
import { treasuryToOps } from '../../test/create-requests.ts';
import { engineTest } from '../../test/engine-test.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { sdkCaller, type Sdk, type SdkCaller } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';

const EVENTS = '/api/external/activity/events/';

/** The URL both SDKs build: limit and cursor first, then the filters (URLSearchParams' order). */
function eventsUrl(limit: number, cursor: string | null, params: Record<string, string> = {}) {
  return `${EVENTS}?${new URLSearchParams({ limit: String(limit), cursor: cursor ?? '', ...params })}`;
}

async function events(client: SdkCaller, sdk: Sdk, url: string) {
  const got = await client.call(sdk, 'GET', url, undefined, url);
  expect(got.status, got.text).toBe(200);
  return ActivityEventListResponse.parse(got.body);
}

async function runToEnd(t: EngineTestApp, id: string) {
  for (let i = 0; i < 10; i += 1) {
    const status = await t.status(id);
    if (status === 'COMPLETED' || status === 'FAILED') return status;
    await t.run(10 * 60_000);
  }
  return t.status(id);
}

describe('getActivityEvents, as both SDKs page it', () => {
  for (const sdk of ['js', 'python'] as const) {
    engineTest(
      `${sdk}: a transfer's request, approval and completion, newest first, one page at a time`,
      async ({ t, f }) => {
        const client = await sdkCaller(t, `${sdk} activity reader`);
        const created = await client.call(
          sdk,
          'POST',
          paths.transactions(),
          treasuryToOps(f, '0.01', { externalId: `activity-${sdk}` }),
        );
        expect(created.status, created.text).toBe(200);
        const id = String(created.body.id);
        await client.approve(sdk, id);
        expect(await runToEnd(t, id)).toBe('COMPLETED');

        // The export loop of the SDKs' activity example: pages until hasNext is false.
        const seen = [];
        let cursor: string | null = '';
        for (let page = 0; page < 5; page += 1) {
          const got = await events(client, sdk, eventsUrl(1, cursor, { entityId: id }));
          seen.push(...got.results);
          if (!got.hasNext || !got.nextCursor) break;
          cursor = got.nextCursor;
        }
        expect(seen.map((e) => [e.action, e.outcome])).toEqual([
          ['create_applied', 'success'],
          ['create_approved', 'success'],
          ['create_requested', 'success'],
        ]);
        for (const event of seen) {
          expect(event).toMatchObject({ entityType: 'Transaction', entityId: id });
          expect(typeof event.id).toBe('string');
          expect(typeof event.schemaVersion).toBe('string');
          expect(typeof event.activityLabel).toBe('string');
          expect(new Date(event.createdAt ?? '').toISOString()).toBe(event.createdAt);
        }
        const [applied, approved, requested] = seen;
        expect(requested).toMatchObject({
          actorId: client.user.id,
          metaData: { platform: 'api' },
        });
        expect(approved).toMatchObject({ actorId: client.user.id, metaData: { platform: 'api' } });
        expect(applied?.actorId ?? null).toBeNull();
        expect(new Set(seen.map((e) => e.id)).size).toBe(3);

        // Filters compose with each other and the cursor.
        const onlyApproved = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, action: 'create_approved', actorId: client.user.id }),
        );
        expect(onlyApproved.results.map((e) => e.action)).toEqual(['create_approved']);
        const failures = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, outcome: 'failure' }),
        );
        expect(failures.results).toEqual([]);
        const fromWeb = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, platformType: 'web' }),
        );
        expect(fromWeb.results).toEqual([]);
        const later = new Date(Date.parse(applied?.createdAt ?? '') + 1).toISOString();
        const before = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, createdAtLte: applied?.createdAt ?? '' }),
        );
        expect(before.results).toHaveLength(3);
        const after = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, createdAtGte: later }),
        );
        expect(after.results).toEqual([]);
        const transactions = await events(
          client,
          sdk,
          eventsUrl(20, '', { entityId: id, entityType: 'Transaction' }),
        );
        expect(transactions.results).toHaveLength(3);
      },
    );
  }

  engineTest('every bad filter is a 400 naming it', async ({ t }) => {
    const client = await sdkCaller(t, 'activity refusals');
    for (const [params, field] of [
      [{ action: 'create_done' }, 'action'],
      [{ outcome: 'maybe' }, 'outcome'],
      [{ entityType: 'Wallet' }, 'entityType'],
      [{ platformType: 'fax' }, 'platformType'],
      [{ createdAtGte: 'yesterday' }, 'createdAtGte'],
      [{ createdAtLte: '2026-01-01' }, 'createdAtLte'],
    ] as const) {
      const url = eventsUrl(20, '', params);
      const refused = await client.call('js', 'GET', url, undefined, url);
      expect(refused.status, refused.text).toBe(400);
      expect(ApiErrorBody.parse(refused.body).fields?.map((x) => x.field)).toContain(field);
    }
    const badCursor = eventsUrl(20, 'not-a-cursor');
    const refused = await client.call('js', 'GET', badCursor, undefined, badCursor);
    expect(refused.status, refused.text).toBe(400);
    expect(ApiErrorBody.parse(refused.body).code).toBe('INVALID_CURSOR');
  });

  engineTest(
    "a member held to a sub-organization reads only its entities' events",
    async ({ t, f }) => {
      const client = await sdkCaller(t, 'activity scope');
      const desk = await createSubOrg(t.db, t.orgId, 'Activity desk');
      const made = await client.call('js', 'POST', paths.vaults(), {
        vaultName: 'Desk vault',
        subOrgId: desk.id,
        chains: ['ETHEREUM'],
      });
      expect(made.status, made.text).toBe(200);
      const vault = Vault.parse(made.body);
      const transfer = await client.call(
        'js',
        'POST',
        paths.transactions(),
        treasuryToOps(f, '0.01', { externalId: 'activity-outside' }),
      );
      expect(transfer.status, transfer.text).toBe(200);

      const member = await signInStaff(t.app, t.db, t.authClock, {
        role: 'viewer',
        subOrgIds: [desk.id],
      });
      const mine = await member.json(eventsUrl(100, ''));
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const page = ActivityEventListResponse.parse(mine.body);
      expect(page.results.map((e) => [e.entityType, e.entityId, e.action])).toEqual([
        ['Vault', vault.id, 'create_requested'],
      ]);
      expect(page.results[0]).toMatchObject({ entityName: 'Desk vault' });
      const outside = await member.json(eventsUrl(100, '', { entityId: String(transfer.body.id) }));
      expect(ActivityEventListResponse.parse(outside.body).results).toEqual([]);

      // The organization's view holds both.
      const all = await events(client, 'js', eventsUrl(100, ''));
      const ids = all.results.map((e) => e.entityId);
      expect(ids).toContain(vault.id);
      expect(ids).toContain(String(transfer.body.id));
    },
  );
});
