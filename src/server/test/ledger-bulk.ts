import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { declaredWrite } from '../db/declared-writes.ts';
import { ledgerDays, ledgerMovements } from '../db/schema/sandbox.ts';

const DAY = 86_400_000;

/**
 * A busy vault's year, written in bulk by SQL (what a year of the
 * simulator would take hours to make): 100,000 USDC movements from
 * `yearAgo` on, one each 315 s, every tenth a fee of 0.01; then eight more
 * assets moving once a day, and their daily summary. The same data for the ledger's bench test and
 * `npm run bench -- --only ledger-statement`.
 */
export async function insertBusyYear(
  db: Database,
  input: { orgId: string; vaultId: string; yearAgo: Date },
): Promise<void> {
  const { orgId, vaultId, yearAgo } = input;
  await declaredWrite(db, [ledgerMovements], () =>
    db.execute(sql`
      insert into sandbox.ledger_movements
        (org_id, vault_id, asset, chain, kind, amount, balance_after, usd_price, memo, at)
      select ${orgId}, ${vaultId}, 'USDC', 'ETHEREUM',
        case when g % 10 = 0 then 'FEE' else 'AMOUNT' end,
        case when g % 10 = 0 then -0.01 when g % 2 = 0 then -1.5 else 2.25 end,
        0, 1, 'bench', ${yearAgo.toISOString()}::timestamptz + g * interval '315 seconds'
      from generate_series(1, 100000) g`),
  );
  await declaredWrite(db, [ledgerMovements], () =>
    db.execute(sql`
      insert into sandbox.ledger_movements
        (org_id, vault_id, asset, chain, kind, amount, balance_after, usd_price, memo, at)
      select ${orgId}, ${vaultId}, 'A' || a, 'ETHEREUM', 'AMOUNT',
        round((random() * 1000)::numeric, 6), 0, round((random() * 100)::numeric, 4), 'bench',
        ${yearAgo.toISOString()}::timestamptz + d * interval '1 day' + interval '1 hour'
      from generate_series(1, 8) a, generate_series(1, 365) d`),
  );
  await summarizeVault(db, vaultId);
}

/** The statement's query for the whole busy year. */
export const busyYearPeriod = (yearAgo: Date) => ({
  from: yearAgo.toISOString(),
  to: new Date(yearAgo.getTime() + 366 * DAY).toISOString(),
});

/**
 * Sums a vault's movements written in bulk into its daily summary, as the
 * migration that made the summary did (the sandbox's own writes keep it as
 * they go).
 */
export async function summarizeVault(db: Database, vaultId: string): Promise<void> {
  await declaredWrite(db, [ledgerDays], () =>
    db.execute(sql`delete from sandbox.ledger_days where vault_id = ${vaultId}`),
  );
  await declaredWrite(db, [ledgerDays], () =>
    db.execute(sql`
      insert into sandbox.ledger_days
        (org_id, vault_id, asset, chain, day, amounts, fees, closing, last_price, last_at, movements)
      select d.org_id, d.vault_id, d.asset, d.chain, d.day, d.amounts, d.fees,
        sum(d.amounts - d.fees) over (partition by d.vault_id, d.asset, d.chain order by d.day),
        d.last_price, d.last_at, d.movements
      from (
        select m.org_id, m.vault_id, m.asset, m.chain, (m.at at time zone 'UTC')::date as day,
          coalesce(sum(m.amount) filter (where m.kind <> 'FEE'), 0) as amounts,
          coalesce(-sum(m.amount) filter (where m.kind = 'FEE'), 0) as fees,
          (array_agg(m.usd_price order by m.at desc, m.id desc))[1] as last_price,
          max(m.at) as last_at, count(*)::integer as movements
        from sandbox.ledger_movements m
        where m.vault_id = ${vaultId}
        group by m.org_id, m.vault_id, m.asset, m.chain, (m.at at time zone 'UTC')::date
      ) d`),
  );
}
