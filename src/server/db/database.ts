import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as sandboxSchema from './schema/sandbox.ts';

/**
 * The query builder both drivers share, which the rest of the server sees
 * (db/client.ts opens it). Its own module so the modules db/client.ts builds
 * on (the read cache, the declared writes, the PGlite worker) can name it
 * without importing the module that imports them.
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof sandboxSchema>;
