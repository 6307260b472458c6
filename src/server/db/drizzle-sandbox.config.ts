import { defineConfig } from 'drizzle-kit';

// The sandbox's tables are a migration track of their own, so upstream mode
// can run the console's migrations without creating any sandbox table.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/sandbox.ts',
  out: './src/server/db/migrations/sandbox',
  schemaFilter: ['sandbox'],
});
