import { buildTestDatabaseTemplates } from './test-database.ts';

/** Vitest's global set-up of the projects whose tests open the suite's database (vitest.config.ts). */
export default async function setup(): Promise<void> {
  await buildTestDatabaseTemplates();
}
