import { pgSchema } from 'drizzle-orm/pg-core';

/**
 * The console's own tables (staff, sessions, audit log) live in the `console`
 * PostgreSQL schema, present in both sandbox and upstream mode. Empty for now:
 * staff and sessions arrive with sign-in.
 *
 * Regenerate migrations after editing:
 *   npx drizzle-kit generate --config src/server/db/drizzle-console.config.ts
 */
export const consoleSchema = pgSchema('console');
