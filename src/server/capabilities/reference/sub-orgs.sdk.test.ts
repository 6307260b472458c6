import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { SubOrg, SubOrgListResponse } from '#contract/reference.ts';
import { engineTest } from '../../test/engine-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { sdkCaller } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('createSubOrg, as both SDKs send it', () => {
  for (const sdk of ['js', 'python'] as const) {
    engineTest(
      `${sdk}: a name alone makes a managed sub-organization the list then holds`,
      async ({ t }) => {
        const client = await sdkCaller(t, `${sdk} sub-org maker`);
        const name = `Acme & Sons ${sdk}`;
        const created = await client.call(sdk, 'POST', paths.subOrgs(), { name });
        expect(created.status, created.text).toBe(200);
        const subOrg = SubOrg.parse(created.body);
        // Every field of the SDKs' SubOrg type.
        expect(created.body).toMatchObject({
          orgId: t.orgId,
          name,
          controlMode: 'MANAGED',
          isDeleted: false,
          version: 1,
        });
        expect(created.body.createdAt).toEqual(created.body.updatedAt);
        expect(typeof created.body.id).toBe('string');

        const listUrl = `${paths.subOrgs()}${toQueryString({ limit: 100, cursor: '' })}`;
        const listed = await client.call(sdk, 'GET', listUrl, undefined, listUrl);
        expect(listed.status, listed.text).toBe(200);
        const page = SubOrgListResponse.parse(listed.body);
        expect(page.results.find((s) => s.id === subOrg.id)).toMatchObject({ name });
      },
    );
  }

  engineTest(
    'a missing, blank, long or unexpected name is a 400 naming the field',
    async ({ t }) => {
      const client = await sdkCaller(t, 'sub-org refusals');
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(101) }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'Fine', controlMode: 'INDEPENDENT' }, 'controlMode'],
      ] as const) {
        const refused = await client.call('js', 'POST', paths.subOrgs(), body);
        expect(refused.status, refused.text).toBe(400);
        const error = ApiErrorBody.parse(refused.body);
        expect(error.fields?.map((f) => f.field)).toContain(field);
      }
    },
  );

  engineTest(
    'staff: an admin of every sub-organization may make one; an admin held to some may not, nor anyone but an admin',
    async ({ t }) => {
      const admin = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
      const made = await admin.json(paths.subOrgs(), post({ name: 'Made by an admin' }));
      expect(made.status, JSON.stringify(made.body)).toBe(200);

      const desk = await createSubOrg(t.db, t.orgId, 'Held desk');
      const heldAdmin = await signInStaff(t.app, t.db, t.authClock, {
        role: 'admin',
        subOrgIds: [desk.id],
      });
      const held = await heldAdmin.json(paths.subOrgs(), post({ name: 'Not mine to make' }));
      expect(held.status).toBe(403);
      expect(ApiErrorBody.parse(held.body).code).toBe('OUTSIDE_ADMIN_SCOPE');

      const initiator = await signInStaff(t.app, t.db, t.authClock, { role: 'initiator' });
      expect((await initiator.json(paths.subOrgs(), post({ name: 'Nor mine' }))).status).toBe(403);
    },
  );
});

describe("getSubOrgs' name filter, as the JS SDK's sub_org example sends it", () => {
  engineTest(
    'name=%Acme…% (a LIKE pattern, % the wildcard) lists only the matching sub-organizations, paged by cursor; a name without % matches as a part',
    async ({ t }) => {
      const client = await sdkCaller(t, 'sub-org filter');
      const tag = `f${Date.now().toString(36)}`;
      for (const name of [`Acme customer ${tag}`, `Acme supplier ${tag}`, `Globex ${tag}`])
        expect((await client.call('js', 'POST', paths.subOrgs(), { name })).status).toBe(200);
      // getSubOrgs({name: '%Acme%…'}, 1, cursor): limit, cursor, then the params, one page at a time.
      const names: string[] = [];
      let cursor: string | null = '';
      do {
        const url = `${paths.subOrgs()}?${new URLSearchParams({ limit: '1', cursor: cursor ?? '', name: `%Acme%${tag}%` })}`;
        const page = await client.call('js', 'GET', url, undefined, url);
        expect(page.status, page.text).toBe(200);
        const parsed = SubOrgListResponse.parse(page.body);
        names.push(...parsed.results.map((s) => s.name ?? ''));
        cursor = parsed.nextCursor ?? null;
      } while (cursor);
      expect(names.sort()).toEqual([`Acme customer ${tag}`, `Acme supplier ${tag}`]);
      // Without a %, a part of the name; case aside; `_` is no wildcard.
      const part = `${paths.subOrgs()}?${new URLSearchParams({ limit: '20', cursor: '', name: `GLOBEX ${tag}` })}`;
      const byPart = SubOrgListResponse.parse(
        (await client.call('js', 'GET', part, undefined, part)).body,
      );
      expect(byPart.results.map((s) => s.name)).toEqual([`Globex ${tag}`]);
      const underscore = `${paths.subOrgs()}?${new URLSearchParams({ limit: '20', cursor: '', name: `Acme_customer ${tag}` })}`;
      const none = SubOrgListResponse.parse(
        (await client.call('js', 'GET', underscore, undefined, underscore)).body,
      );
      expect(none.results).toEqual([]);
    },
  );
});
