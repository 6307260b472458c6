import { defineConfig } from 'drizzle-kit';

// The console's own tables (staff, sessions, audit): a migration track that
// runs in both sandbox and upstream mode.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/console.ts',
  out: './src/server/db/migrations/console',
  schemaFilter: ['console'],
});
