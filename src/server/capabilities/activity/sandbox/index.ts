import { sql, type SQL } from 'drizzle-orm';
import type { ActivityEntityType, ActivityEvent } from '#contract/activity.ts';
import type { Page } from '#contract/common.ts';
import type { ChangeRequestEntityType, CreatorType } from '#contract/enums.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import { decodeCursor, keysetPage } from '../../../custody/sandbox/keyset.ts';
import {
  bankAccounts,
  changeRequests,
  contacts,
  transactionStatusEvents,
  transactions,
  vaults,
} from '../../../db/schema/sandbox.ts';
import type { ActivityEventQuery, ActivityPort } from '../port.ts';

/**
 * The activity log, read from what the sandbox already records: every change
 * request (asked for, then approved or rejected, by whom; one cancelled with
 * its entity has no decision, as the provider's actions name none), and when each
 * change took effect: a transaction when it completed or failed on its
 * chain, a vault, contact or bank account when it was approved. Nothing new
 * is written for it. An event's id starts with its stage (1 asked, 2 decided,
 * 3 took effect), so events of one moment list newest stage first, as the
 * keyset's (time, id) order reads them.
 */

const WIRE_TYPE: Record<ChangeRequestEntityType, ActivityEntityType> = {
  TRANSACTION: 'Transaction',
  VAULT: 'Vault',
  CONTACT: 'Contact',
  BANK_ACCOUNT: 'OrgBankAccount',
};
const STORED_TYPE = new Map(
  Object.entries(WIRE_TYPE).map(([stored, wire]) => [wire as string, stored]),
);

/** The platform an actor acted from: API users through the API, staff through the console. */
const PLATFORM: Record<CreatorType, string> = {
  API_USER: 'api',
  STAFF: 'web',
  ANONYMOUS: 'unknown',
};

const NOUN: Record<string, string> = {
  create: 'creation',
  update: 'change',
  delete: 'removal',
};

/** Bumped when an event's fields change meaning. */
const SCHEMA_VERSION = '1';

interface EventRow extends Record<string, unknown> {
  id: string;
  at_iso: string;
  action: string;
  outcome: string;
  entity_type: ChangeRequestEntityType;
  entity_id: string;
  actor_id: string | null;
  actor_type: CreatorType | null;
  sub_org_id: string | null;
  entity_name: string | null;
}

function eventsOf(orgId: string): SQL {
  const cr = changeRequests;
  const verb = sql`(case when ${cr.proposedChange} is null then 'create' else 'update' end)`;
  return sql`
    select 'evt_1_' || ${cr.id} as id, ${cr.createdAt} as at,
           ${verb} || '_requested' as action, 'success' as outcome,
           ${cr.entityType} as entity_type, ${cr.entityId} as entity_id,
           ${cr.createdById} as actor_id, ${cr.createdByType} as actor_type
      from ${cr} where ${cr.orgId} = ${orgId}
    union all
    select 'evt_2_' || ${cr.id}, ${cr.decidedAt},
           ${verb} || (case when ${cr.status} = 'APPROVED' then '_approved' else '_rejected' end),
           'success', ${cr.entityType}, ${cr.entityId}, ${cr.decidedById}, ${cr.decidedByType}
      from ${cr}
     where ${cr.orgId} = ${orgId} and ${cr.status} in ('APPROVED', 'REJECTED')
       and ${cr.decidedAt} is not null
    union all
    select 'evt_3_' || ${cr.id}, ${cr.decidedAt}, ${verb} || '_applied', 'success',
           ${cr.entityType}, ${cr.entityId}, null, null
      from ${cr}
     where ${cr.orgId} = ${orgId} and ${cr.status} = 'APPROVED'
       and ${cr.entityType} <> 'TRANSACTION' and ${cr.decidedAt} is not null
    union all
    select 'evt_3_status_' || ${transactionStatusEvents.id}::text, ${transactionStatusEvents.at},
           'create_applied',
           (case when ${transactionStatusEvents.status} = 'COMPLETED' then 'success' else 'failure' end),
           'TRANSACTION', ${transactionStatusEvents.transactionId}, null, null
      from ${transactionStatusEvents}
      join ${transactions} on ${transactions.id} = ${transactionStatusEvents.transactionId}
     where ${transactions.orgId} = ${orgId}
       and ${transactionStatusEvents.status} in ('COMPLETED', 'FAILED')`;
}

/** The conditions the filters, the scope and the cursor put on an event (`e`, its entity joined). */
function conditions(query: ActivityEventQuery): SQL[] | null {
  const where: SQL[] = [];
  if (query.entityType) {
    const stored = STORED_TYPE.get(query.entityType);
    // A type the sandbox never records (a policy, a group): no event can match.
    if (!stored) return null;
    where.push(sql`e.entity_type = ${stored}`);
  }
  if (query.action) where.push(sql`e.action = ${query.action}`);
  if (query.outcome) where.push(sql`e.outcome = ${query.outcome}`);
  if (query.entityId) where.push(sql`e.entity_id = ${query.entityId}`);
  if (query.actorId) where.push(sql`e.actor_id = ${query.actorId}`);
  if (query.platformType) {
    const types = Object.entries(PLATFORM)
      .filter(([, platform]) => platform === query.platformType)
      .map(([type]) => type);
    if (query.platformType === 'unknown')
      where.push(sql`(e.actor_type is null or e.actor_type = 'ANONYMOUS')`);
    else if (types.length === 0) return null;
    else
      where.push(
        sql`e.actor_type in (${sql.join(
          types.map((t) => sql`${t}`),
          sql`, `,
        )})`,
      );
  }
  if (query.createdAtGte) where.push(sql`e.at >= ${query.createdAtGte}::timestamptz`);
  if (query.createdAtLte) where.push(sql`e.at <= ${query.createdAtLte}::timestamptz`);
  if (query.subOrgId) where.push(sql`e.sub_org_id = ${query.subOrgId}`);
  if (query.subOrgIds)
    where.push(
      query.subOrgIds.length === 0
        ? sql`false`
        : sql`e.sub_org_id in (${sql.join(
            query.subOrgIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
  return where;
}

function toWire(row: EventRow & { createdAt: Date }): ActivityEvent {
  const [verb = 'create', stage = ''] = row.action.split('_');
  const entity = WIRE_TYPE[row.entity_type];
  const failed = row.outcome === 'failure';
  return {
    id: row.id,
    action: row.action,
    outcome: row.outcome,
    activityLabel: failed
      ? `${entity} failed`
      : `${entity} ${NOUN[verb] ?? verb} ${stage}`.replace('OrgBankAccount', 'Bank account'),
    createdAt: row.createdAt.toISOString(),
    entityType: entity,
    entityId: row.entity_id,
    entityName: row.entity_name,
    actorId: row.actor_id,
    metaData: {
      platform: row.actor_type ? PLATFORM[row.actor_type] : 'unknown',
      // The sandbox keeps neither: the console's own audit log has them for staff.
      sourceIp: null,
      userAgent: null,
    },
    schemaVersion: SCHEMA_VERSION,
    subOrgId: row.sub_org_id,
  };
}

export function activitySandbox({
  db,
  orgIdFor,
}: Pick<SandboxDeps, 'db' | 'orgIdFor'>): ActivityPort {
  return {
    async listActivityEvents(ctx, query): Promise<Page<ActivityEvent>> {
      const position = query.cursor ? decodeCursor('activity_events', query.cursor) : undefined;
      const orgId = await orgIdFor(ctx);
      const where = conditions(query);
      if (!orgId || !where) return { results: [], hasNext: false, nextCursor: null };
      if (position)
        where.push(
          sql`(e.at, e.id) < (${position.createdAt.toISOString()}::timestamptz, ${position.id})`,
        );
      return keysetPage(
        'activity_events',
        query.limit,
        async (take) => {
          const result = await db.execute<EventRow>(sql`
            select e.*, to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at_iso
              from (
                select ev.*,
                       coalesce(v.sub_org_id, c.sub_org_id, b.sub_org_id, t.sub_org_id) as sub_org_id,
                       coalesce(v.vault_name, c.name, b.account_name,
                                t.category || coalesce(' ' || t.asset, '') || ' on ' || t.block_chain)
                         as entity_name
                  from (${eventsOf(orgId)}) ev
                  left join ${vaults} v on ev.entity_type = 'VAULT' and v.id = ev.entity_id
                  left join ${contacts} c on ev.entity_type = 'CONTACT' and c.id = ev.entity_id
                  left join ${bankAccounts} b
                         on ev.entity_type = 'BANK_ACCOUNT' and b.id = ev.entity_id
                  left join ${transactions} t
                         on ev.entity_type = 'TRANSACTION' and t.id = ev.entity_id
              ) e
             ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
             order by e.at desc, e.id desc
             limit ${take}`);
          const rows = Array.isArray(result) ? result : (result as { rows: EventRow[] }).rows;
          return rows.map((row) => ({ ...row, createdAt: new Date(row.at_iso) }));
        },
        toWire,
      );
    },
  };
}
