import { sql } from 'drizzle-orm';
import { getTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.ts';
import { declaredWrite } from '../declared-writes.ts';
import { createOrg, createTransaction } from '../../test/fixtures.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import * as consoleSchema from './console.ts';
import * as sandboxSchema from './sandbox.ts';

const tables: PgTable[] = [];
for (const value of [...Object.values(consoleSchema), ...Object.values(sandboxSchema)])
  if (value instanceof PgTable) tables.push(value);

const dialect = new PgDialect();

describe('columns typed by a list', () => {
  it('each has a CHECK of exactly its list', () => {
    const listed: string[] = [];
    for (const table of tables) {
      const config = getTableConfig(table);
      for (const column of config.columns) {
        if (!column.enumValues) continue;
        const name = `${config.name}_${column.name}_in_list`;
        listed.push(name);
        const constraint = config.checks.find((c) => c.name === name);
        expect(constraint, name).toBeDefined();
        const list = column.enumValues.map((v) => `'${v}'`).join(', ');
        expect(constraint && dialect.sqlToQuery(constraint.value).sql, name).toBe(
          `"${column.name}" IN (${list})`,
        );
      }
    }
    // The fee tier, statuses, categories, rails and roles among them.
    expect(listed).toEqual(
      expect.arrayContaining([
        'transactions_fee_tier_in_list',
        'transactions_status_in_list',
        'transactions_category_in_list',
        'bank_accounts_payment_method_in_list',
        'staff_role_in_list',
      ]),
    );
  });

  describe('in the database', () => {
    let database: DatabaseHandle;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database.close());

    /** The constraint a statement broke (drizzle wraps the driver's error as its cause). */
    const broken = (statement: Promise<unknown>) =>
      statement.then(
        () => 'nothing',
        (error: Error) => (error.cause as { constraint?: string } | undefined)?.constraint,
      );

    it('refuses a value outside the list, as the compiler does', async () => {
      const { db } = database;
      const org = await createOrg(db);
      const tx = await createTransaction(db, { orgId: org.id });
      expect(
        await broken(
          db.execute(sql`update sandbox.transactions set fee_tier = 'URGENT' where id = ${tx.id}`),
        ),
      ).toBe('transactions_fee_tier_in_list');
      expect(
        await broken(
          db.execute(sql`update sandbox.transactions set status = 'pending' where id = ${tx.id}`),
        ),
      ).toBe('transactions_status_in_list');
      // Null is not a value: a transaction without a tier still passes.
      await declaredWrite(db, [sandboxSchema.transactions], () =>
        db.execute(sql`update sandbox.transactions set fee_tier = null where id = ${tx.id}`),
      );
    });
  });
});
