import { sql } from 'drizzle-orm';
import { check } from 'drizzle-orm/pg-core';

/**
 * A CHECK that a column typed by one of the contract's lists
 * (`text('x', { enum: LIST })`) holds a value of that list, so the database
 * refuses a wrong value as the compiler does (null passes, as in any CHECK).
 * Written from the list itself: a list that grows or shrinks changes the
 * constraint, and `drizzle-kit generate` writes the migration. The list is
 * passed again: the column drizzle hands a table's constraints carries
 * neither its list nor its type. `one-of.test.ts` holds every listed column
 * to a constraint of exactly its list.
 */
export function oneOf(table: string, column: { readonly name: string }, values: readonly string[]) {
  for (const value of values)
    if (!/^[A-Za-z_]+$/.test(value)) throw new Error(`${table}.${column.name}: ${value}?`);
  const list = values.map((value) => `'${value}'`).join(', ');
  return check(`${table}_${column.name}_in_list`, sql.raw(`"${column.name}" IN (${list})`));
}
