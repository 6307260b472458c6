import { and, desc, eq, inArray, max } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  DEFAULT_POLICY,
  type Policy,
  type PolicyState,
  type PolicyVersion,
} from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import type { Database } from '../../db/client.ts';
import { approvalPolicies, staff } from '../../db/schema/console.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/**
 * Approval policies' versions (contract/policies.ts, PolicyVersion): a draft
 * edited by admins, published by another, every published version kept. All
 * changes run in one transaction holding the draft's row, so two admins
 * saving or publishing at once cannot lose a change or publish an unread one.
 */

type Row = typeof approvalPolicies.$inferSelect;
type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

interface Member {
  id: string;
  name: string;
}

const draftChanged = (message: string) =>
  new ApiError(409, ERROR_CODES.policyDraftChanged, message, [{ field: 'revision', message }]);

/** Version 0: the built-in default, active until a first version is published. */
function builtIn(kind: PolicyKind, status: 'ACTIVE' | 'RETIRED'): PolicyVersion {
  return {
    kind,
    version: 0,
    status,
    policy: DEFAULT_POLICY,
    revision: 0,
    basedOn: null,
    editors: [],
    updatedAt: null,
    publishedBy: null,
    publishedAt: null,
    publishItem: null,
  };
}

/**
 * The approvable item a draft's revision is (publish/policy-publish.ts): each
 * save makes a new one, so a decision names exactly the revision reviewed.
 */
export const publishEntityId = (draftId: number, revision: number) =>
  `policy-draft-${draftId}-r${revision}`;

async function namesOf(db: Executor, rows: readonly Row[]): Promise<Map<string, string>> {
  const ids = [
    ...new Set(rows.flatMap((r) => [...r.editorIds, ...(r.publishedBy ? [r.publishedBy] : [])])),
  ];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(inArray(staff.id, ids));
  return new Map(found.map((m) => [m.id, m.name]));
}

function toWire(row: Row, names: Map<string, string>): PolicyVersion {
  const member = (id: string) => ({ id, name: names.get(id) ?? id });
  return {
    kind: row.kind,
    version: row.version,
    status: row.status,
    policy: row.document,
    revision: row.revision,
    basedOn: row.basedOn,
    editors: row.editorIds.map(member),
    updatedAt: row.updatedAt.toISOString(),
    publishedBy: row.publishedBy ? member(row.publishedBy) : null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    publishItem: row.status === 'DRAFT' ? publishEntityId(row.id, row.revision) : null,
  };
}

/** The active version, the open draft and the earlier versions, newest first. */
export async function policyState(db: Executor, kind: PolicyKind): Promise<PolicyState> {
  const rows = await db
    .select()
    .from(approvalPolicies)
    .where(eq(approvalPolicies.kind, kind))
    .orderBy(desc(approvalPolicies.version));
  const names = await namesOf(db, rows);
  const active = rows.find((r) => r.status === 'ACTIVE');
  const draft = rows.find((r) => r.status === 'DRAFT');
  const retired = rows.filter((r) => r.status === 'RETIRED').map((r) => toWire(r, names));
  return {
    active: active ? toWire(active, names) : builtIn(kind, 'ACTIVE'),
    draft: draft ? toWire(draft, names) : null,
    history: active ? [...retired, builtIn(kind, 'RETIRED')] : [],
  };
}

/** The policy items are judged by now, and its version (0: the built-in default). */
export async function activePolicy(
  db: Executor,
  kind: PolicyKind,
): Promise<{ version: number; policy: Policy }> {
  const [row] = await db
    .select({ version: approvalPolicies.version, document: approvalPolicies.document })
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.status, 'ACTIVE')));
  return row
    ? { version: row.version ?? 0, policy: row.document }
    : { version: 0, policy: DEFAULT_POLICY };
}

async function lockedDraft(tx: Executor, kind: PolicyKind): Promise<Row | undefined> {
  const [row] = await tx
    .select()
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.status, 'DRAFT')))
    .for('update');
  return row;
}

/** A new draft at revision 1, `member` its first editor; `basedOn` the version it starts from. */
async function insertDraft(
  tx: Executor,
  kind: PolicyKind,
  draft: { document: Policy; basedOn: number },
  member: Member,
  now: Date,
): Promise<Row> {
  const [inserted] = await tx
    .insert(approvalPolicies)
    .values({
      kind,
      status: 'DRAFT',
      document: draft.document,
      revision: 1,
      basedOn: draft.basedOn,
      editorIds: [member.id],
      updatedAt: now,
    })
    .returning();
  return inserted!;
}

async function withOneDraft<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // Two admins began a draft at the same instant: the second hears what the first did.
    if (isUniqueViolation(error))
      throw draftChanged(
        'Another admin began a draft at the same time: open the draft and edit it',
      );
    throw error;
  }
}

/**
 * Saves the whole draft. `revision` is the one the editor read: 0 begins a
 * draft from the active version, and is refused while a draft is open.
 */
export async function saveDraft(
  db: Database,
  kind: PolicyKind,
  input: { policy: Policy; revision: number },
  member: Member,
  now: Date,
): Promise<PolicyVersion> {
  const row = await withOneDraft(() =>
    db.transaction(async (tx) => {
      const draft = await lockedDraft(tx, kind);
      if (!draft) {
        if (input.revision !== 0)
          throw draftChanged('The draft you edited was published or discarded: begin a new one');
        const { version } = await activePolicy(tx, kind);
        return insertDraft(tx, kind, { document: input.policy, basedOn: version }, member, now);
      }
      if (draft.revision !== input.revision)
        throw draftChanged(
          `The draft changed since you opened it (revision ${draft.revision}, you edited ${input.revision}): open it again`,
        );
      const [updated] = await tx
        .update(approvalPolicies)
        .set({
          document: input.policy,
          revision: draft.revision + 1,
          editorIds: draft.editorIds.includes(member.id)
            ? draft.editorIds
            : [...draft.editorIds, member.id],
          updatedAt: now,
        })
        .where(eq(approvalPolicies.id, draft.id))
        .returning();
      return updated!;
    }),
  );
  return toWire(row, await namesOf(db, [row]));
}

/** Discards the open draft: the ids of the rows deleted (none when no draft is open). */
export async function discardDraft(db: Executor, kind: PolicyKind): Promise<number[]> {
  const deleted = await db
    .delete(approvalPolicies)
    .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.status, 'DRAFT')))
    .returning({ id: approvalPolicies.id });
  return deleted.map((row) => row.id);
}

/** The open draft's row, if any: the item a publish is decided on (publish/). */
export async function openDraft(db: Executor, kind: PolicyKind): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.status, 'DRAFT')));
  return row;
}

/** A policy version's row by its id: a draft, or what it became once published. */
export async function policyRow(db: Executor, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(approvalPolicies).where(eq(approvalPolicies.id, id));
  return row;
}

/**
 * Publishes the draft at exactly `revision`, in the caller's transaction: the
 * active version retires and the draft takes the next number. Who may publish
 * is the approval core's verdict on the publish (publish/policy-publish.ts):
 * an unrestricted admin who never edited it, not linked to one who did.
 */
export async function publishLocked(
  tx: Executor,
  kind: PolicyKind,
  revision: number,
  member: { id: string },
  now: Date,
): Promise<{ version: number; basedOn: number | null }> {
  const draft = await lockedDraft(tx, kind);
  if (!draft) throw new ApiError(404, ERROR_CODES.notFound, `No ${kind} policy draft is open`);
  if (draft.revision !== revision)
    throw draftChanged(
      `The draft changed after you reviewed it (revision ${draft.revision}, you reviewed ${revision}): review it again`,
    );
  const [last] = await tx
    .select({ version: max(approvalPolicies.version) })
    .from(approvalPolicies)
    .where(eq(approvalPolicies.kind, kind));
  const version = (last?.version ?? 0) + 1;
  await tx
    .update(approvalPolicies)
    .set({ status: 'RETIRED' })
    .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.status, 'ACTIVE')));
  await tx
    .update(approvalPolicies)
    .set({ status: 'ACTIVE', version, publishedBy: member.id, publishedAt: now })
    .where(eq(approvalPolicies.id, draft.id));
  return { version, basedOn: draft.basedOn };
}

/** `publishLocked` in a transaction of its own: what tests use to set a policy up. */
export async function publishDraft(
  db: Database,
  kind: PolicyKind,
  revision: number,
  member: Member,
  now: Date,
): Promise<{ version: number; basedOn: number | null }> {
  return db.transaction((tx) => publishLocked(tx, kind, revision, member, now));
}

/** Opens a draft holding an earlier version (0: the built-in default). */
export async function restoreVersion(
  db: Database,
  kind: PolicyKind,
  version: number,
  member: Member,
  now: Date,
): Promise<PolicyVersion> {
  const row = await withOneDraft(() =>
    db.transaction(async (tx) => {
      if (await lockedDraft(tx, kind))
        throw draftChanged('A draft is open: publish or discard it before restoring a version');
      let document: Policy = DEFAULT_POLICY;
      if (version !== 0) {
        const [found] = await tx
          .select({ document: approvalPolicies.document, status: approvalPolicies.status })
          .from(approvalPolicies)
          .where(and(eq(approvalPolicies.kind, kind), eq(approvalPolicies.version, version)));
        if (!found)
          throw new ApiError(
            404,
            ERROR_CODES.notFound,
            `No version ${version} of the ${kind} policy`,
          );
        document = found.document;
      }
      return insertDraft(tx, kind, { document, basedOn: version }, member, now);
    }),
  );
  return toWire(row, await namesOf(db, [row]));
}
