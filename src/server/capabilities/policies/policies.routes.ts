import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  approvalProgress as approvalProgressEndpoint,
  discardPolicyDraft,
  getPolicies,
  previewPolicy,
  publishPolicyDraft,
  restorePolicyVersion,
  savePolicyDraft,
} from '#contract/endpoints/policies.ts';
import { reviewRampPolicy, reviewTransactionPolicy } from '#contract/endpoints/policy-writes.ts';
import { describeOutcome, describeRule, type Policy, type PolicyRule } from '#contract/policies.ts';
import { PolicyKind } from '#contract/policy-kind.ts';
import { inArray } from 'drizzle-orm';
import { audit } from '../../auth/audit.ts';
import { unauthorized, type AuthOptions } from '../../auth/session-auth.ts';
import { outsideAdminScope } from '../../console/admin-scope.ts';
import { isHeldKind, type ApprovableKind, type CardContext } from '../approvals/core/kind.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { Database } from '../../db/client.ts';
import { staff } from '../../db/schema/console.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { decideHeld } from '../approvals/core/held.ts';
import { requirementFor } from './evaluate.ts';
import { proposePublish, withdrawPublishItems } from './publish/policy-publish.ts';
import { requirementOf } from './votes.store.ts';
import { draftRampRequirement, draftRequirement } from './guard.ts';
import { approvalProgress, requirementsOf, summaryOf } from './progress.ts';
import {
  activePolicy,
  discardDraft,
  openDraft,
  policyState,
  publishEntityId,
  restoreVersion,
  saveDraft,
} from './policies.store.ts';

/**
 * The console's approval policies (contract/endpoints/policies.ts). Reading
 * is every member's; editing and publishing are for admins of every
 * sub-organization, since a policy governs them all, and the publisher must
 * be an admin who did not edit the draft (policies.store.ts).
 */

function kindOf(value: string): PolicyKind {
  const parsed = PolicyKind.safeParse(value);
  if (!parsed.success)
    throw new ApiError(
      404,
      ERROR_CODES.notFound,
      `No policy kind "${value}": transactions or accounts`,
    );
  return parsed.data;
}

function unrestrictedAdmin(c: Context<AppEnv>) {
  const member = c.get('staff');
  if (!member) throw unauthorized();
  if (member.subOrgIds)
    throw outsideAdminScope(
      'Approval policies govern every sub-organization: only an admin of all of them may change one',
    );
  return member;
}

/** The publish items a change withdrew, as the audit row says it. */
function withdrawnInWords(items: readonly string[]): string {
  if (items.length === 0) return '';
  return items.length === 1
    ? `; its publish item ${items[0]} is withdrawn`
    : `; its publish items ${items.join(', ')} are withdrawn`;
}

/** How many rules a policy has, and how a change reads in the audit log. */
function rulesIn(policy: { rules: readonly PolicyRule[] }): string {
  return policy.rules.length === 1 ? '1 rule' : `${policy.rules.length} rules`;
}

/**
 * The published policy in the audit log's words, as the Policies page lists
 * it: "1. Large: Any category ≥ $10,000.00 → 2 approvals from admins; …;
 * otherwise …", members and sub-organizations by name where known.
 */
async function policyInWords(
  db: Database,
  backend: CustodyBackend,
  ctx: CustodyContext,
  policy: Policy,
): Promise<string> {
  const memberIds = [
    ...new Set(
      [...policy.rules.map((r) => r.outcome), policy.fallback].flatMap((o) =>
        o.action === 'ALLOW' ? o.approvers.memberIds : [],
      ),
    ),
  ];
  const members = memberIds.length
    ? await db
        .select({ id: staff.id, name: staff.name })
        .from(staff)
        .where(inArray(staff.id, memberIds))
    : [];
  const subOrgs = policy.rules.some((r) => r.match.subOrgIds)
    ? // A name is a courtesy here: the audit row is written with ids if the list cannot be read.
      await backend.listSubOrgs(ctx, { limit: 100 }).then(
        (page) => page.results,
        () => [],
      )
    : [];
  const names = new Map<string, string>([
    ...members.map((m): [string, string] => [m.id, m.name]),
    ...subOrgs.flatMap((o): Array<[string, string]> => (o.id && o.name ? [[o.id, o.name]] : [])),
  ]);
  const nameOf = (id: string) => names.get(id) ?? id;
  const rules = policy.rules.map(
    (rule, i) => `${i + 1}. ${rule.name}: ${describeRule(rule, nameOf)}`,
  );
  return [...rules, `otherwise ${describeOutcome(policy.fallback, nameOf)}`].join('; ');
}

/**
 * The item's sub-organization when the member may see it, as its kind reads it
 * (approvals/core/); undefined when not, gone, or of no kind declared here.
 */
async function visibleSubOrg(
  card: CardContext,
  kinds: readonly ApprovableKind[],
  entityType: string,
  entityId: string,
): Promise<{ subOrgId: string | null } | undefined> {
  const kind = kinds.find((k) => k.kind === entityType);
  if (!kind) return undefined;
  return kind.stateOf(card, entityId).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  });
}

export function policyRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  kinds: readonly ApprovableKind[],
) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();

  /**
   * The draft's revision just saved waits for another admin to publish it (the approval
   * core); the audit row's words for the earlier revisions' items it withdrew.
   */
  async function holdOpenDraft(kind: PolicyKind): Promise<string> {
    const draft = await openDraft(db, kind);
    return withdrawnInWords(draft ? await proposePublish(db, clock, draft) : []);
  }

  /** Runs a change, recording it (or its refusal) in the audit log. */
  async function audited<T>(
    c: Context<AppEnv>,
    action: string,
    kind: string,
    run: () => Promise<{ result: T; summary: string }>,
  ): Promise<T> {
    try {
      const { result, summary } = await run();
      await audit(c, options, {
        action,
        entityType: 'POLICY',
        entityId: kind,
        summary,
        outcome: 'success',
      });
      return result;
    } catch (error) {
      if (error instanceof ApiError)
        await audit(c, options, {
          action,
          entityType: 'POLICY',
          entityId: kind,
          summary: `Refused: ${error.message}`,
          outcome: error.status === 403 ? 'denied' : 'failed',
        });
      throw error;
    }
  }

  mount(app, CONSOLE_API_PREFIX, getPolicies, ({ params }) => policyState(db, kindOf(params.kind)));

  mount(app, CONSOLE_API_PREFIX, savePolicyDraft, ({ params, body }, c) =>
    audited(c, 'policy.draft', params.kind, async () => {
      const member = unrestrictedAdmin(c);
      const kind = kindOf(params.kind);
      const saved = await saveDraft(db, kind, body, member, clock.now());
      const withdrawn = await holdOpenDraft(kind);
      return {
        result: saved,
        summary: `Saved the ${kind} policy draft (revision ${saved.revision}, ${rulesIn(body.policy)})${withdrawn}`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, discardPolicyDraft, ({ params }, c) =>
    audited(c, 'policy.discard', params.kind, async () => {
      unrestrictedAdmin(c);
      const kind = kindOf(params.kind);
      // The draft and its publish items go together: none is left waiting on a draft gone.
      const withdrawn = await db.transaction(async (tx) => {
        const drafts = await discardDraft(tx, kind);
        if (drafts.length === 0)
          throw new ApiError(404, ERROR_CODES.notFound, `No ${kind} policy draft is open`);
        const items: string[] = [];
        for (const id of drafts) items.push(...(await withdrawPublishItems(tx, clock, id)));
        return items;
      });
      return {
        result: await policyState(db, kind),
        summary: `Discarded the ${kind} policy draft${withdrawnInWords(withdrawn)}`,
      };
    }),
  );

  // A thin adapter onto the approval core: the decision on the revision reviewed, as the
  // inbox's (publish/policy-publish.ts says who counts; a member with a passkey signs).
  mount(app, CONSOLE_API_PREFIX, publishPolicyDraft, ({ params, body }, c) =>
    audited(c, 'policy.publish', params.kind, async () => {
      unrestrictedAdmin(c);
      const kind = kindOf(params.kind);
      const draft = await openDraft(db, kind);
      if (!draft) throw new ApiError(404, ERROR_CODES.notFound, `No ${kind} policy draft is open`);
      if (draft.revision !== body.revision)
        throw new ApiError(
          409,
          ERROR_CODES.policyDraftChanged,
          `The draft changed after you reviewed it (revision ${draft.revision}, you reviewed ${body.revision}): review it again`,
          [{ field: 'revision', message: 'the draft changed after you reviewed it' }],
        );
      const entityId = publishEntityId(draft.id, draft.revision);
      // A draft saved before publishes were held is held now, as it would have been.
      if (!(await requirementOf(db, entityId))) await proposePublish(db, clock, draft);
      try {
        await decideHeld({ auth: options, backend, kinds }, c, entityId, {
          action: 'approve',
          ...(body.intent ? { intent: body.intent } : {}),
        });
      } catch (error) {
        // Published by another admin a moment before: as this route always said, no draft is open.
        if (
          error instanceof ApiError &&
          error.code === ERROR_CODES.alreadyDecided &&
          !(await openDraft(db, kind))
        )
          throw new ApiError(404, ERROR_CODES.notFound, `No ${kind} policy draft is open`);
        throw error;
      }
      const state = await policyState(db, kind);
      const { version, basedOn } = state.active;
      return {
        result: state,
        summary: `Published version ${version} of the ${kind} policy (${rulesIn(state.active.policy)}; drafted from version ${basedOn ?? 0}): ${await policyInWords(db, backend, custodyContext(c), state.active.policy)}`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, restorePolicyVersion, ({ params }, c) =>
    audited(c, 'policy.restore', params.kind, async () => {
      const member = unrestrictedAdmin(c);
      const kind = kindOf(params.kind);
      // eslint-disable-next-line no-restricted-syntax -- a policy version number, at most 9 digits
      const version = /^(0|[1-9]\d{0,8})$/.test(params.version) ? Number(params.version) : NaN;
      if (Number.isNaN(version))
        throw new ApiError(
          404,
          ERROR_CODES.notFound,
          `No version "${params.version}" of the ${kind} policy`,
        );
      const draft = await restoreVersion(db, kind, version, member, clock.now());
      // No draft was open (restoring refuses otherwise): nothing to withdraw.
      await holdOpenDraft(kind);
      return {
        result: draft,
        summary: `Opened a draft restoring version ${version} of the ${kind} policy`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, previewPolicy, async ({ params, body }) => {
    const kind = kindOf(params.kind);
    const state = body.draft ? (await policyState(db, kind)).draft : null;
    if (body.draft && !state)
      throw new ApiError(404, ERROR_CODES.notFound, `No ${kind} policy draft is open`);
    const { version, policy } = state
      ? { version: state.version ?? 0, policy: state.policy }
      : await activePolicy(db, kind);
    const { initiatorKind, ...facts } = body;
    const requirement = requirementFor(policy, version, {
      ...facts,
      // The preview asks about a kind of initiator, not a person: a made-up one of that kind.
      initiator:
        initiatorKind === 'api_client'
          ? { kind: 'api_client', id: '(preview)' }
          : { kind: 'staff', id: '(preview)', role: initiatorKind },
    });
    return { requirement, summary: await summaryOf(db, requirement) };
  });

  // The create form's review: the very facts the create would be judged on, read as this member.
  mount(app, CONSOLE_API_PREFIX, reviewTransactionPolicy, async ({ body }, c) => {
    const requirement = await draftRequirement(backend, options, custodyContext(c), body);
    return { requirement, summary: await summaryOf(db, requirement) };
  });

  // The Convert page's review: the transaction the chosen quote would make, judged as its execute.
  mount(app, CONSOLE_API_PREFIX, reviewRampPolicy, async ({ body }, c) => {
    const requirement = await draftRampRequirement(backend, options, custodyContext(c), body);
    return { requirement, summary: await summaryOf(db, requirement) };
  });

  // Only what the member may see: an item outside their scope (or unknown) is left out.
  mount(app, CONSOLE_API_PREFIX, approvalProgressEndpoint, async ({ query: { entityIds } }, c) => {
    const ctx = custodyContext(c);
    const member = ctx.actor?.type === 'STAFF' ? ctx.actor.id : null;
    const card: CardContext = { backend, ctx, db, clock, memberId: member };
    const rows = await requirementsOf(db, entityIds);
    const seen = await Promise.all(
      rows.map((row) => visibleSubOrg(card, kinds, row.entityType, row.entityId)),
    );
    const items = rows.flatMap((row, i) => {
      const item = seen[i];
      return item
        ? [{ row, subOrgId: item.subOrgId, held: isHeldKind(kinds, row.entityType) }]
        : [];
    });
    return { results: await approvalProgress(db, items, member) };
  });

  return app;
}
