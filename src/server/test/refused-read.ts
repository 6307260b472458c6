import { expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import type { TestApp } from './test-app.ts';

/** A read the app refuses, as the admin asks it: its status and code; the error's body, to read the rest of. */
export async function expectError(t: TestApp, url: string, status: number, code: string) {
  const res = await t.getJson(url);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ApiErrorBody.parse(res.body);
  expect(body.code).toBe(code);
  return body;
}
