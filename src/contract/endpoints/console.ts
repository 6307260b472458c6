import * as z from 'zod/mini';
import { endpoint } from '../endpoint.ts';

/** The console describing itself. */

export const openApiDocument = endpoint({
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'This document: every declared endpoint, its schemas, permission and audit action.',
  action: 'read',
  permission: 'read',
  audit: false,
  answer: z.looseObject({ openapi: z.string() }),
});
