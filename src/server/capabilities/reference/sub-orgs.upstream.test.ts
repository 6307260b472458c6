import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { paths } from '#contract/paths.ts';
import { SubOrg } from '#contract/reference.ts';
import { subOrgs } from '../../db/schema/sandbox.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards createSubOrg to console B (the sandbox) over real
// HTTP, signed with the API user's key; the held admin is refused on A before anything is sent.

const upstreamTest = twoConsolesTest({}, async () => {});

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('createSubOrg through an upstream console', () => {
  upstreamTest(
    'an admin of every sub-organization makes one upstream; one held to some is refused before anything is sent',
    async ({ t, admin }) => {
      const made = await admin.json(paths.subOrgs(), post({ name: 'Upstream desk' }));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const subOrg = SubOrg.parse(made.body);
      expect(subOrg).toMatchObject({ name: 'Upstream desk', controlMode: 'MANAGED' });
      const [row] = await t.b.db
        .select()
        .from(subOrgs)
        .where(eq(subOrgs.id, subOrg.id ?? ''));
      expect(row).toMatchObject({ orgId: t.b.orgId, name: 'Upstream desk' });

      const held = await t.signIn('admin', { subOrgIds: [subOrg.id ?? ''] });
      const refused = await held.json(paths.subOrgs(), post({ name: 'Not sent' }));
      expect(refused.status).toBe(403);
      const sent = await t.b.db.select().from(subOrgs).where(eq(subOrgs.name, 'Not sent'));
      expect(sent).toEqual([]);
    },
  );
});
