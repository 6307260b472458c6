import type { Database } from '../db/client.ts';

/**
 * Every statement `db` sends while `fn` runs, in order, transactions
 * included: the logger drizzle hands each statement to, wrapped for the
 * while (a transaction's session shares its options, hence its logger).
 * A test reads from it how often a request reads a table.
 */
export async function statementsDuring(
  db: Database,
  fn: () => Promise<unknown>,
): Promise<string[]> {
  interface Logger {
    logQuery(query: string, params: unknown[]): void;
  }
  const session = (db as unknown as { session: { logger: Logger; options: { logger?: Logger } } })
    .session;
  const before = { logger: session.logger, options: session.options.logger };
  const seen: string[] = [];
  const counting: Logger = {
    logQuery(query, params) {
      seen.push(query);
      before.logger.logQuery(query, params);
    },
  };
  session.logger = counting;
  session.options.logger = counting;
  try {
    await fn();
  } finally {
    session.logger = before.logger;
    if (before.options) session.options.logger = before.options;
    else delete session.options.logger;
  }
  return seen;
}
