import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { ApprovalCard, CardChangeLine } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { SsoGroupRole, SsoPendingChange, UpdateSsoSettings } from '#contract/sso.ts';
import {
  readGroupRoles,
  readSsoSettings,
  saveSsoSettings,
  type SsoSettingsRow,
} from '../../../auth/sso.store.ts';
import { findStaffByEmail, getStaff, type StaffRecord } from '../../../auth/staff.store.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { approvalRequirements, ssoChanges, staff } from '../../../db/schema/console.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import { frozenOf, MOVES_NO_MONEY, namedDestination, ruleOf } from '../card/parts.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';
import { oneAdminRule, proposeHeld } from '../core/propose.ts';

/**
 * A single sign-on change as an approvable kind the console holds
 * (ARCHITECTURE.md, "Approvable kinds"). Single sign-on decides who enters
 * and with which role: a save that lets more people in or lets them do more
 * (contract/sso-widening.ts) would otherwise let one admin make approvers and
 * admins alone, which the Staff page never allows. Such a save is held: its
 * rule, frozen as it is proposed, is one approval by an admin of every
 * sub-organization who is not the proposer nor linked to them; approved, the
 * settings are saved exactly as proposed, once, in the transaction that marks
 * it decided. Any later save withdraws it: it was proposed against settings
 * no longer in force.
 */

export const SSO_CHANGE = 'SINGLE_SIGN_ON_CHANGE';

type Row = typeof ssoChanges.$inferSelect;

const notFound = () =>
  new ApiError(404, ERROR_CODES.notFound, 'No single sign-on change with that id');

function requirementOf(proposer: StaffRecord): FrozenRequirement {
  return oneAdminRule('Single sign-on changes', {
    excluded: [proposer.id],
    unlinkedFrom: [{ id: proposer.id, name: proposer.name, createdBy: proposer.createdBy }],
    // Sign-in opens every sub-organization: only an admin of all of them decides it.
    subOrgIds: null,
  });
}

/**
 * Settles every change still waiting as withdrawn: the settings it was
 * proposed against are no longer in force, so it must not wait in any inbox.
 * Answers the ids withdrawn, for the audit row.
 */
export async function withdrawSsoChanges(db: Database, clock: Clock): Promise<string[]> {
  const withdrawn = await db
    .update(ssoChanges)
    .set({ status: 'WITHDRAWN', decidedAt: clock.now() })
    .where(eq(ssoChanges.status, 'PENDING'))
    .returning({ id: ssoChanges.id });
  for (const { id } of withdrawn) {
    await db
      .update(approvalRequirements)
      .set({ settled: 'DECLINED' })
      .where(and(eq(approvalRequirements.entityId, id), isNull(approvalRequirements.settled)));
    await raiseApprovalEvent(
      db,
      {
        kind: 'DECIDED',
        entityType: SSO_CHANGE,
        entityId: id,
        subOrgId: null,
        status: 'WITHDRAWN',
      },
      clock,
    );
  }
  return withdrawn.map((row) => row.id);
}

/** Files the save for another admin, withdrawing any earlier one: one transaction. */
export async function proposeSsoChange(
  db: Database,
  clock: Clock,
  input: {
    settings: UpdateSsoSettings;
    widens: string[];
    summary: string;
  },
  proposer: StaffRecord,
): Promise<{ id: string; withdrawn: string[] }> {
  const { clientSecret, ...settings } = input.settings;
  return db.transaction(async (tx) => {
    const withdrawn = await withdrawSsoChanges(tx, clock);
    const lines = linesOf(
      await readSsoSettings(tx),
      await readGroupRoles(tx),
      settings,
      clientSecret !== undefined,
    );
    const id = randomUUID();
    await tx.insert(ssoChanges).values({
      id,
      settings,
      clientSecret: clientSecret ?? null,
      widens: input.widens,
      summary: input.summary,
      lines,
      proposedBy: proposer.id,
      proposedAt: clock.now(),
      status: 'PENDING',
    });
    await proposeHeld(tx, clock, {
      kind: ssoChangeKind,
      entityId: id,
      subOrgId: null,
      requirement: requirementOf(proposer),
      initiator: { kind: 'staff', id: proposer.id, role: proposer.role },
    });
    return { id, withdrawn };
  });
}

/** The change waiting for another admin, as the settings page shows it. */
export async function pendingSsoChange(db: Database): Promise<SsoPendingChange | null> {
  const [row] = await db
    .select({
      id: ssoChanges.id,
      widens: ssoChanges.widens,
      proposedAt: ssoChanges.proposedAt,
      proposerId: staff.id,
      proposerName: staff.name,
    })
    .from(ssoChanges)
    .innerJoin(staff, eq(staff.id, ssoChanges.proposedBy))
    .where(eq(ssoChanges.status, 'PENDING'))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    proposedBy: { id: row.proposerId, name: row.proposerName },
    proposedAt: row.proposedAt.toISOString(),
    widens: row.widens,
  };
}

/** The change, when the member asking is an admin of every sub-organization. */
async function visible(card: CardContext, entityId: string): Promise<Row | null> {
  if (!card.memberId) return null;
  const asking = await getStaff(card.db, card.memberId);
  if (!asking || !roleAllows(asking.role, 'admin') || asking.subOrgIds) return null;
  const [row] = await card.db.select().from(ssoChanges).where(eq(ssoChanges.id, entityId));
  return row ?? null;
}

const scopeText = (subOrgIds: SsoGroupRole['subOrgIds']) =>
  subOrgIds ? `sub-organizations ${subOrgIds.join(', ')}` : 'every sub-organization';
const grantText = (group: SsoGroupRole | undefined) =>
  group ? `${group.role}, ${scopeText(group.subOrgIds)}` : null;

/** Each setting the change alters, before → after, and each group mapping it adds, alters or drops. */
function linesOf(
  inForce: SsoSettingsRow | undefined,
  groups: SsoGroupRole[],
  after: Omit<UpdateSsoSettings, 'clientSecret'>,
  secretReplaced: boolean,
): CardChangeLine[] {
  const lines: CardChangeLine[] = [];
  const fields: Array<[string, string | null, string | null]> = [
    [
      'Single sign-on',
      inForce ? (inForce.enabled ? 'on' : 'off') : null,
      after.enabled ? 'on' : 'off',
    ],
    ['Company name', inForce?.label ?? null, after.label],
    ['Issuer', inForce?.issuer ?? null, after.issuer],
    ['Client ID', inForce?.clientId ?? null, after.clientId],
    ['Groups claim', inForce?.groupsClaim ?? null, after.groupsClaim],
    ['Scopes', inForce?.scopes ?? null, after.scopes],
    [
      'Password sign-in',
      inForce ? passwordText(inForce.passwordSignIn, inForce.breakGlassEmail) : null,
      passwordText(after.passwordSignIn, after.breakGlassEmail),
    ],
  ];
  for (const [label, before, next] of fields)
    if (before !== next) lines.push({ label, before, after: next });
  if (secretReplaced)
    lines.push({
      label: 'Client secret',
      before: inForce ? 'set' : null,
      after: 'replaced (never shown)',
    });
  const names = [...new Set([...groups, ...after.groups].map((g) => g.groupName))].sort();
  for (const name of names) {
    const before = grantText(groups.find((g) => g.groupName === name));
    const next = grantText(after.groups.find((g) => g.groupName === name));
    if (before !== next) lines.push({ label: `Group ${name}`, before, after: next ?? 'no access' });
  }
  return lines;
}

function passwordText(mode: string, breakGlassEmail: string | null): string {
  return mode === 'break_glass' ? `only ${breakGlassEmail ?? 'the break-glass admin'}` : 'everyone';
}

async function cardOf(card: CardContext, row: Row): Promise<ApprovalCard> {
  const frozen = await frozenOf(card, row.id, null, true);
  return {
    intent: {
      kind: SSO_CHANGE,
      category: 'SINGLE_SIGN_ON',
      source: null,
      destination: namedDestination('SINGLE_SIGN_ON', 'oidc', row.settings.label, false),
      ...MOVES_NO_MONEY,
      rule: await ruleOf(card, frozen.requirement),
      change: {
        summary: `Single sign-on settings: ${row.widens.join(' ')}`,
        lines: row.lines,
      },
    },
    status: {
      entityId: row.id,
      state: row.status,
      createdAt: row.proposedAt.toISOString(),
      computedAt: card.clock.now().toISOString(),
      amountUsd: null,
      priceUsd: null,
      feeCeilingUsd: null,
      balances: [],
      quorum: frozen.quorum,
    },
  };
}

/**
 * The break-glass admin a change names must still be an enabled admin when it
 * is applied: passwords off with no one left to sign in by password, and a
 * provider that fails, locks everyone out.
 */
export async function checkBreakGlass(
  db: Database,
  settings: Pick<UpdateSsoSettings, 'enabled' | 'passwordSignIn' | 'breakGlassEmail'>,
): Promise<void> {
  if (!settings.enabled || settings.passwordSignIn !== 'break_glass') return;
  const glass = settings.breakGlassEmail
    ? await findStaffByEmail(db, settings.breakGlassEmail)
    : undefined;
  if (!glass || glass.disabled || glass.role !== 'admin')
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      'breakGlassEmail must be an enabled admin: the one who can still sign in with a password',
      [{ field: 'breakGlassEmail', message: 'must be an enabled admin' }],
    );
}

export const ssoChangeKind: ApprovableKind = {
  kind: SSO_CHANGE,
  async loadCard(card, entityId) {
    const row = await visible(card, entityId);
    return row ? cardOf(card, row) : null;
  },
  async stateOf(card, entityId) {
    const row = await visible(card, entityId);
    if (!row) throw notFound();
    return { pending: row.status === 'PENDING', subOrgId: null };
  },
  async settle(card, entityId, outcome) {
    const [row] = await card.db
      .select()
      .from(ssoChanges)
      .where(eq(ssoChanges.id, entityId))
      .for('update');
    if (!row) throw notFound();
    if (row.status !== 'PENDING')
      throw new ApiError(
        409,
        ERROR_CODES.alreadyDecided,
        row.status === 'WITHDRAWN'
          ? 'This single sign-on change was withdrawn: the settings were saved again since'
          : 'This single sign-on change was already decided',
      );
    const now = card.clock.now();
    if (outcome === 'APPROVED') {
      await checkBreakGlass(card.db, row.settings);
      const secret = row.clientSecret ?? (await readSsoSettings(card.db))?.clientSecret;
      if (!secret) throw new Error('sso change: no client secret to save');
      await saveSsoSettings(card.db, row.settings, secret, row.proposedBy, now);
    }
    await card.db
      .update(ssoChanges)
      .set({ status: outcome, decidedBy: card.memberId, decidedAt: now })
      .where(eq(ssoChanges.id, row.id));
  },
};
