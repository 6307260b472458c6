import { describe, expect } from 'vitest';
import { openApiPath, pathOf } from '#contract/endpoint.ts';
import { ENDPOINTS } from '#contract/endpoints/index.ts';
import { declaredRules } from './route-rule.ts';
import { appTest } from '../test/app-test.ts';
import type {} from '../test/test-app.ts';
import { OPENAPI_PATH } from './openapi.ts';

describe('endpoints declared once (contract/endpoints)', () => {
  appTest('are each mounted by the app with the declared permission and audit action', ({ t }) => {
    const mounted = declaredRules(t.app);
    for (const e of ENDPOINTS) {
      const route = mounted.find((r) => r.method === e.method && r.path === e.path);
      expect(route, `${e.method} ${e.path}`).toBeDefined();
      expect(route?.rule?.permission).toBe(e.permission);
      expect(route?.rule?.audit === false ? false : route?.rule?.audit.action).toBe(
        e.audit === false ? false : e.audit.action,
      );
    }
  });

  appTest('are published as an OpenAPI 3.1 document, to signed-in staff', async ({ t }) => {
    expect((await t.anonymous(OPENAPI_PATH)).status).toBe(401);
    const res = await t.admin.json(OPENAPI_PATH);
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const e of ENDPOINTS) {
      const op = doc.paths[openApiPath(e.path)]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(Object.keys(op?.responses ?? {})).toContain(String(e.status ?? 200));
    }
    const update = doc.paths['/api/console/staff/{staffId}/']?.patch as unknown as {
      parameters: Array<{ name: string; in: string }>;
      requestBody: { content: { 'application/json': { schema: { properties: object } } } };
    };
    expect(update.parameters).toEqual([expect.objectContaining({ name: 'staffId', in: 'path' })]);
    expect(Object.keys(update.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['name', 'role', 'subOrgIds', 'disabled']),
    );
  });

  appTest('fill their paths one encoded segment per parameter', () => {
    const e = ENDPOINTS.find((x) => x.path === '/api/console/staff/:staffId/');
    expect(e && pathOf(e, { staffId: 'a/b c' })).toBe('/api/console/staff/a%2Fb%20c/');
    expect(() => e && pathOf(e, {})).toThrow(/needs its staffId/);
  });
});
