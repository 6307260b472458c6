import { and, eq, inArray, isNull, like, ne } from 'drizzle-orm';
import {
  canonicalJson,
  type ApprovalCard,
  type CardChange,
  type CardChangeLine,
} from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  describeOutcome,
  describeRule,
  ruleCategoryLabel,
  type Policy,
  type PolicyRule,
} from '#contract/policies.ts';
import { formatUsd } from '#contract/decimal-format.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import type { Clock } from '../../../clock.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import type { Database } from '../../../db/client.ts';
import type { approvalPolicies } from '../../../db/schema/console.ts';
import { approvalRequirements, staff } from '../../../db/schema/console.ts';
import { frozenOf, MOVES_NO_MONEY, namedDestination, ruleOf } from '../../approvals/card/parts.ts';
import type { ApprovableKind, CardContext } from '../../approvals/core/kind.ts';
import { oneAdminRule, proposeHeld } from '../../approvals/core/propose.ts';
import { activePolicy, policyRow, publishEntityId, publishLocked } from '../policies.store.ts';

/**
 * A policy publish as an approvable kind the console holds (ARCHITECTURE.md,
 * "Approvable kinds"): each saved revision of a draft is an item, proposed as
 * it is saved, whose rule is one approval by an admin of every
 * sub-organization who never edited the draft and is not linked to one who
 * did (the core's evaluation applies it, as every rule). Its card says what
 * publishing changes against the published version, rule by rule, and the
 * categories and thresholds it touches; approved, the draft is published at
 * exactly that revision, once, in the transaction that marks it decided. A
 * later save makes a new item: a decision on an older revision publishes
 * nothing. Declined, the draft stays open for its editors.
 */

export const POLICY_PUBLISH = 'POLICY_PUBLISH';

type Row = typeof approvalPolicies.$inferSelect;

function parseEntity(entityId: string): { draftId: number; revision: number } | null {
  const found = /^policy-draft-(\d{1,15})-r(\d{1,9})$/.exec(entityId);
  if (!found?.[1] || !found[2]) return null;
  // eslint-disable-next-line no-restricted-syntax -- a row id and a revision count, at most 15 digits
  return { draftId: Number(found[1]), revision: Number(found[2]) };
}

const notFound = () =>
  new ApiError(404, ERROR_CODES.notFound, 'No policy draft waiting to be published with that id');

/** The draft's editors, each with who created their account (their links). */
async function editorsOf(db: Pick<Database, 'select'>, row: Row) {
  if (row.editorIds.length === 0) return [];
  const found = await db
    .select({ id: staff.id, name: staff.name, role: staff.role, createdBy: staff.createdBy })
    .from(staff)
    .where(inArray(staff.id, row.editorIds));
  return row.editorIds.flatMap((id) => found.filter((m) => m.id === id));
}

/**
 * Holds the draft's revision just saved for another admin to publish: its
 * rule frozen (every editor so far left out, and their linked accounts), the
 * browsers told. Earlier revisions' items are withdrawn (they can no longer
 * be published): answered, for the audit row.
 */
export async function proposePublish(db: Database, clock: Clock, row: Row): Promise<string[]> {
  const entityId = publishEntityId(row.id, row.revision);
  const editors = await editorsOf(db, row);
  const first = editors[0];
  if (!first) throw new Error('proposePublish: a draft without an editor');
  const requirement = oneAdminRule('Policy publishes', {
    excluded: editors.map((m) => m.id),
    unlinkedFrom: editors.map(({ id, name, createdBy }) => ({ id, name, createdBy })),
    // A policy governs every sub-organization: only an admin of all of them publishes one.
    subOrgIds: null,
  });
  await proposeHeld(db, clock, {
    kind: policyPublishKind,
    entityId,
    subOrgId: null,
    requirement,
    initiator: { kind: 'staff', id: first.id, role: first.role },
  });
  return withdrawPublishItems(db, clock, row.id, entityId);
}

/**
 * Settles the draft's publish items still waiting, all but `keep` (the
 * revision just saved): a revision replaced by a save, or every one of a
 * discarded draft, can never be published, so it must not wait in any inbox
 * or count toward any badge. Settled as declined (nothing was published), only
 * those not settled yet, so each is withdrawn once; each withdrawal is told to
 * the browsers. Answers the items withdrawn, for the audit row.
 */
export async function withdrawPublishItems(
  db: Pick<Database, 'update' | 'insert'>,
  clock: Clock,
  draftId: number,
  keep?: string,
): Promise<string[]> {
  const withdrawn = await db
    .update(approvalRequirements)
    .set({ settled: 'DECLINED' })
    .where(
      and(
        eq(approvalRequirements.entityType, POLICY_PUBLISH),
        like(approvalRequirements.entityId, `policy-draft-${draftId}-r%`),
        keep ? ne(approvalRequirements.entityId, keep) : undefined,
        isNull(approvalRequirements.settled),
      ),
    )
    .returning({ entityId: approvalRequirements.entityId });
  for (const { entityId } of withdrawn)
    await raiseApprovalEvent(
      db,
      {
        kind: 'DECIDED',
        entityType: POLICY_PUBLISH,
        entityId,
        subOrgId: null,
        status: 'WITHDRAWN',
      },
      clock,
    );
  return withdrawn.map((row) => row.entityId);
}

/** The revision and its draft's row, when the member asking is an admin of every sub-organization. */
async function visible(
  card: CardContext,
  entityId: string,
): Promise<{ row: Row; revision: number } | null> {
  const parsed = parseEntity(entityId);
  if (!parsed || !card.memberId) return null;
  const [asking] = await card.db
    .select({ role: staff.role, subOrgIds: staff.subOrgIds })
    .from(staff)
    .where(eq(staff.id, card.memberId));
  if (!asking || !roleAllows(asking.role, 'admin') || asking.subOrgIds) return null;
  const row = await policyRow(card.db, parsed.draftId);
  return row ? { row, revision: parsed.revision } : null;
}

const money = (value: string | undefined) => (value ? `≥ $${formatUsd(value)}` : 'no threshold');

function categoriesOf(rule: PolicyRule | undefined): string[] {
  if (!rule) return [];
  return rule.match.categories ? rule.match.categories.map(ruleCategoryLabel) : ['any category'];
}

/**
 * What publishing `draft` changes against `active`, in the Policies page's
 * words: each rule added, removed, changed or moved (rules matched by id),
 * the fallback, then the categories and the thresholds it touches.
 */
export function publishChange(
  kind: PolicyKind,
  revision: number,
  active: { version: number; policy: Policy },
  draft: Policy,
): CardChange {
  const nameOf = (id: string) => id;
  const lines: CardChangeLine[] = [];
  const before = new Map(active.policy.rules.map((r, i) => [r.id, { rule: r, at: i + 1 }]));
  const after = new Map(draft.rules.map((r, i) => [r.id, { rule: r, at: i + 1 }]));
  const categories = new Set<string>();
  const thresholds: CardChangeLine[] = [];
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(id);
    const now = after.get(id);
    const was1 = was ? describeRule(was.rule, nameOf) : null;
    const now1 = now ? describeRule(now.rule, nameOf) : null;
    const name = (now ?? was)?.rule.name ?? id;
    const moved = was && now && was.at !== now.at;
    if (
      was1 === now1 &&
      canonicalJson(was?.rule ?? null) === canonicalJson(now?.rule ?? null) &&
      !moved
    )
      continue;
    lines.push({
      label: `Rule “${name}”${moved ? ` (moved from ${was.at} to ${now.at})` : ''}`,
      before: was1,
      after: now1,
    });
    for (const c of [...categoriesOf(was?.rule), ...categoriesOf(now?.rule)]) categories.add(c);
    const [from, to] = [was?.rule.match.amountUsdAtLeast, now?.rule.match.amountUsdAtLeast];
    if (from !== to)
      thresholds.push({ label: `Threshold of “${name}”`, before: money(from), after: money(to) });
  }
  const [fallbackWas, fallbackNow] = [
    describeOutcome(active.policy.fallback, nameOf),
    describeOutcome(draft.fallback, nameOf),
  ];
  if (canonicalJson(active.policy.fallback) !== canonicalJson(draft.fallback)) {
    lines.push({ label: 'Otherwise', before: fallbackWas, after: fallbackNow });
    categories.add('any category no rule matches');
  }
  const preApproval = (p: Policy) =>
    p.schedulePreApproval
      ? `Allowed, up to $${formatUsd(p.schedulePreApproval.maxOccurrenceUsd)} per occurrence`
      : 'Not allowed: each occurrence approved like a new run';
  if (
    canonicalJson(active.policy.schedulePreApproval ?? null) !==
    canonicalJson(draft.schedulePreApproval ?? null)
  )
    lines.push({
      label: 'Pre-approved payment run schedules',
      before: preApproval(active.policy),
      after: preApproval(draft),
    });
  if (categories.size > 0)
    lines.push({ label: 'Categories it changes', before: null, after: [...categories].join(', ') });
  lines.push(...thresholds);
  return {
    summary: `Publish revision ${revision} of the ${kind} policy draft, replacing version ${active.version}${lines.length === 0 ? ' (no rule changes)' : ''}`,
    lines,
  };
}

async function cardOf(card: CardContext, entityId: string, row: Row, revision: number) {
  const frozen = await frozenOf(card, entityId, null, true);
  const pending = row.status === 'DRAFT' && row.revision === revision;
  const built: ApprovalCard = {
    intent: {
      kind: POLICY_PUBLISH,
      category: POLICY_PUBLISH,
      source: null,
      destination: namedDestination('POLICY', row.kind, `The ${row.kind} approval policy`, true),
      ...MOVES_NO_MONEY,
      rule: await ruleOf(card, frozen.requirement),
      // What it changes is read against the version in force now; once published, nothing.
      change: publishChange(
        row.kind,
        revision,
        await activePolicy(card.db, row.kind),
        row.document,
      ),
    },
    status: {
      entityId,
      state: pending ? 'PENDING' : row.revision !== revision ? 'SUPERSEDED' : row.status,
      createdAt: row.updatedAt.toISOString(),
      computedAt: card.clock.now().toISOString(),
      amountUsd: null,
      priceUsd: null,
      feeCeilingUsd: null,
      balances: [],
      quorum: frozen.quorum,
    },
  };
  return built;
}

export const policyPublishKind: ApprovableKind = {
  kind: POLICY_PUBLISH,
  async loadCard(card, entityId) {
    const seen = await visible(card, entityId);
    return seen ? cardOf(card, entityId, seen.row, seen.revision) : null;
  },
  async stateOf(card, entityId) {
    const seen = await visible(card, entityId);
    if (!seen) throw notFound();
    return {
      pending: seen.row.status === 'DRAFT' && seen.row.revision === seen.revision,
      subOrgId: null,
    };
  },
  async settle(card, entityId, outcome) {
    const parsed = parseEntity(entityId);
    const row = parsed ? await policyRow(card.db, parsed.draftId) : undefined;
    if (!parsed || !row || !card.memberId) throw notFound();
    // Declined: nothing is published, and the draft stays open for its editors to revise.
    if (outcome === 'DECLINED') return;
    // Under the draft's row lock, at exactly the revision decided: a save since refuses it.
    await publishLocked(
      card.db,
      row.kind,
      parsed.revision,
      { id: card.memberId },
      card.clock.now(),
    );
  },
};
