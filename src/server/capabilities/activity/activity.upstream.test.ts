import { describe, expect } from 'vitest';
import { ActivityEventListResponse } from '#contract/activity.ts';
import { paths } from '#contract/paths.ts';
import { treasuryToOps } from '../../test/create-requests.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards getActivityEvents, filters and paging included, to
// console B (the sandbox) over real HTTP; a member held to sub-organizations sees no event
// upstream does not place in theirs.

const upstreamTest = twoConsolesTest({}, async () => {});

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const eventsUrl = (params: Record<string, string>) =>
  `/api/external/activity/events/?${new URLSearchParams(params)}`;

describe('getActivityEvents through an upstream console', () => {
  upstreamTest(
    'filters and the page size are forwarded; a held member is shown nothing upstream does not scope',
    async ({ t, initiator }) => {
      const created = await initiator.json(
        paths.transactions(),
        post(treasuryToOps(t.fixture, '0.01', { externalId: 'upstream-activity' })),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = String((created.body as { id: string }).id);

      const first = await initiator.json(eventsUrl({ limit: '1', cursor: '', entityId: id }));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const page = ActivityEventListResponse.parse(first.body);
      expect(page.results.map((e) => [e.action, e.entityType, e.entityId])).toEqual([
        ['create_requested', 'Transaction', id],
      ]);
      // B records A's API user as the one who asked.
      expect(page.results[0]).toMatchObject({
        actorId: t.apiUser.id,
        metaData: { platform: 'api' },
      });

      const approvedOnly = await initiator.json(
        eventsUrl({ limit: '20', cursor: '', entityId: id, action: 'create_approved' }),
      );
      expect(ActivityEventListResponse.parse(approvedOnly.body).results).toEqual([]);

      const held = await t.signIn('viewer', { subOrgIds: ['desk-elsewhere'] });
      const scoped = await held.json(eventsUrl({ limit: '20', cursor: '', entityId: id }));
      expect(scoped.status).toBe(200);
      expect(ActivityEventListResponse.parse(scoped.body).results).toEqual([]);
    },
  );
});
