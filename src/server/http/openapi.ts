import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { toJSONSchema } from 'zod/v4/core';
import { openApiPath, paramNames, type Endpoint } from '#contract/endpoint.ts';
import { openApiDocument as openApiEndpoint } from '#contract/endpoints/console.ts';
import { ENDPOINTS } from '#contract/endpoints/index.ts';
import type { AppEnv } from './app-env.ts';
import { mount } from './mount.ts';

/** The path /api/openapi.json answers on. */
export const OPENAPI_PATH = openApiEndpoint.path;

type Json = Record<string, unknown>;

// A refinement or transform has no JSON Schema: described as any value, never refused.
const schemaOf = (schema: z.core.$ZodType, io: 'input' | 'output'): Json =>
  toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;

function operation(e: Endpoint): Json {
  const parameters: Json[] = paramNames(e.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = e.query ? (schemaOf(e.query, 'input').properties as Json | undefined) : undefined;
  for (const [name, schema] of Object.entries(query ?? {}))
    parameters.push({ name, in: 'query', required: false, schema });
  if (e.paged)
    parameters.push(
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string' } },
    );
  const status = String(e.status ?? 200);
  return {
    summary: e.summary,
    'x-permission': e.permission,
    'x-audit': e.audit === false ? null : e.audit.action,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(e.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(e.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [status]:
        status === '204'
          ? { description: 'Done' }
          : {
              description: 'The answer',
              content: { 'application/json': { schema: schemaOf(e.answer, 'output') } },
            },
      default: {
        description: 'A refusal: {message, code, fields?}',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

/** The OpenAPI 3.1 document of every declared endpoint (contract/endpoints/). */
export function openApiDocument(endpoints: readonly Endpoint[] = ENDPOINTS): Json {
  const paths: Record<string, Json> = {};
  for (const e of endpoints) {
    const path = (paths[openApiPath(e.path)] ??= {});
    path[e.method.toLowerCase()] = operation(e);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Custody Console API',
      version: '1',
      description:
        "The console's own endpoints, declared once in src/contract/endpoints. Staff calls need a session cookie, and mutations its CSRF token (X-CSRF-Token).",
    },
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string' },
            fields: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

/** GET /api/openapi.json, built once. */
export function openApiRoutes() {
  let document: Json | undefined;
  return mount(new Hono<AppEnv>(), '/api', openApiEndpoint, () =>
    Promise.resolve((document ??= openApiDocument()) as { openapi: string }),
  );
}
