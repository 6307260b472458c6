import { sql } from 'drizzle-orm';
import {
  check,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  AUDIT_OUTCOMES,
  STAFF_ROLES,
  type PasskeyAssertion,
  type PasskeyKind,
} from '#contract/auth.ts';
import { COLOR_SCHEMES } from '#contract/display.ts';
import {
  LEDGER_PERIOD_STATUSES,
  type JournalMapping,
  type LedgerPeriodClosing,
} from '#contract/ledger-periods.ts';
import {
  PAYMENT_ROW_KINDS,
  PAYMENT_ROW_STATUSES,
  PAYMENT_RUN_STATUSES,
  type PaymentCheckError,
  type PaymentRowInput,
  type PaymentRunSimulation,
  type RunPreApproval,
} from '#contract/payment-runs.ts';
import { LEDGER_MOVEMENT_KINDS } from '#contract/ledger.ts';
import type { Party } from '#contract/transaction-record.ts';
import {
  SCHEDULE_STATUSES,
  type SchedulePreApproval,
  type ScheduleTiming,
} from '#contract/payment-run-schedules.ts';
import type { FrozenRequirement, Policy } from '#contract/policies.ts';
import type { UpdateSsoSettings } from '#contract/sso.ts';
import type { CardChangeLine } from '#contract/approval-card.ts';
import { POLICY_KINDS } from '#contract/policy-kind.ts';
import {
  CHAT_FORMATS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_STATUSES,
  SMTP_SECURITY,
  type NotificationEvent,
} from '#contract/notifications.ts';
import { oneOf } from './one-of.ts';

/**
 * The console's own tables (staff, sessions, sign-in failures, audit log) live
 * in the `console` PostgreSQL schema, present in both sandbox and upstream
 * mode. Everything a second console server would need is here, never only in
 * memory.
 *
 * Regenerate migrations after editing:
 *   npx drizzle-kit generate --config src/server/db/drizzle-console.config.ts --name <name>
 */
export const consoleSchema = pgSchema('console');

/** What the console records a creator of upstream (upstreamCreators). */
const UPSTREAM_ENTITY_TYPES = ['TRANSACTION', 'BANK_ACCOUNT'] as const;
/** The steps a sign-in challenge stands for (signInChallenges). */
const CHALLENGE_KINDS = ['verify', 'enrol', 'reenrol', 'passkey'] as const;
/** How a member came to exist beyond the CLI and the Staff page (staff.provisionedBy). */
const PROVISIONERS = ['oidc', 'scim'] as const;
/** Who may sign in with a password once single sign-on is set up (ssoSettings). */
const PASSWORD_SIGN_IN = ['everyone', 'break_glass'] as const;

// No `now()` defaults: every row is stamped from the server's one clock (clock.ts), so an insert
// that forgets its time fails to compile (or, raw SQL, NOT NULL) instead of taking the database's.
const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const staff = consoleSchema.table(
  'staff',
  {
    id: text('id').primaryKey(),
    /** Stored lowercased so sign-in is case-insensitive and the unique index means what it says. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** Sub-organizations the member may act in; null means all of them. */
    subOrgIds: jsonb('sub_org_ids').$type<string[] | null>(),
    disabled: boolean('disabled').notNull().default(false),
    /** `scrypt$N$r$p$salt$hash` (see auth/password.ts): parameters travel with the hash. */
    passwordHash: text('password_hash').notNull(),
    createdAt: at('created_at').notNull(),
    /**
     * The admin who created this member through the console; null for members
     * made by the CLI or the demo seed. A decision between a member and the
     * member who created their account is flagged (console/linked-accounts.ts):
     * it may be one person under two names.
     */
    createdBy: text('created_by').references((): AnyPgColumn => staff.id),
    /**
     * The member's own time zone (an IANA name, checked when set); null: the
     * zone their browser reported at sign-in (`sessions.browser_time_zone`).
     */
    timeZone: text('time_zone'),
    colorScheme: text('color_scheme', { enum: COLOR_SCHEMES }).notNull().default('system'),
    /**
     * SHA-256 of the one-time set-up code a member made in the console chooses
     * their password with (auth/staff-setup.ts); null once used, and for
     * members made by the CLI or the seed. Until then their password is a
     * random one nobody was told.
     */
    setupHash: text('setup_hash'),
    setupExpiresAt: at('setup_expires_at'),
    /**
     * The company identity provider's name for this member, `issuer sub`
     * (auth/sso/): set at their first single sign-on, and from then on how
     * they are found, whatever their email becomes. Null for local members.
     */
    idpSubject: text('idp_subject'),
    /** Who provisioned the member: null (the CLI, an admin, the seed), `oidc` or `scim` (auth/sso/). */
    provisionedBy: text('provisioned_by', { enum: PROVISIONERS }),
    /** The SCIM client's own id for the member (its `externalId`), kept as sent. */
    scimExternalId: text('scim_external_id'),
    /**
     * A SCIM-provisioned member's `active` as the client last sent it: such a
     * member is disabled while inactive or in no mapped group (auth/sso/scim.ts).
     */
    scimActive: boolean('scim_active'),
  },
  (t) => [
    uniqueIndex('staff_email_unique').on(t.email),
    uniqueIndex('staff_setup_hash_unique').on(t.setupHash),
    uniqueIndex('staff_idp_subject_unique').on(t.idpSubject),
    oneOf('staff', t.provisionedBy, PROVISIONERS),
    oneOf('staff', t.role, STAFF_ROLES),
    oneOf('staff', t.colorScheme, COLOR_SCHEMES),
  ],
);

const STAFF_PROPOSAL_KINDS = ['create', 'update', 'reset_factor'] as const;

const STAFF_PROPOSAL_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;

/**
 * Staff changes that grant approve or admin rights, widen a scope, or reset
 * another member's second factor: proposed by one admin, applied in the
 * transaction that records another admin's approval (console/staff-proposals.ts).
 */
export const staffProposals = consoleSchema.table(
  'staff_proposals',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: STAFF_PROPOSAL_KINDS }).notNull(),
    /** The member changed; null for a creation until it is approved. */
    staffId: text('staff_id').references((): AnyPgColumn => staff.id),
    /**
     * The change as it will be applied: a creation's email, name, role and
     * scope; an update's fields (contract/auth.ts StaffUpdateRequest).
     */
    change: jsonb('change')
      .$type<{
        email?: string;
        name?: string;
        role?: (typeof STAFF_ROLES)[number];
        subOrgIds?: string[] | null;
        disabled?: boolean;
      }>()
      .notNull(),
    /** A creation's set-up code (SHA-256), carried to the member when approved. */
    setupHash: text('setup_hash'),
    summary: text('summary').notNull(),
    proposedBy: text('proposed_by')
      .notNull()
      .references((): AnyPgColumn => staff.id),
    proposedAt: at('proposed_at').notNull(),
    status: text('status', { enum: STAFF_PROPOSAL_STATUSES }).notNull(),
    decidedBy: text('decided_by').references((): AnyPgColumn => staff.id),
    decidedAt: at('decided_at'),
  },
  (t) => [
    index('staff_proposals_pending').on(t.status, t.proposedAt),
    uniqueIndex('staff_proposals_setup_hash_unique').on(t.setupHash),
    oneOf('staff_proposals', t.kind, STAFF_PROPOSAL_KINDS),
    oneOf('staff_proposals', t.status, STAFF_PROPOSAL_STATUSES),
  ],
);

export const sessions = consoleSchema.table(
  'sessions',
  {
    id: text('id').primaryKey(),
    /** SHA-256 of the cookie's random token: a leaked table cannot be replayed as cookies. */
    tokenHash: text('token_hash').notNull(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    csrfToken: text('csrf_token').notNull(),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The zone the browser reported at sign-in, if the server knows it: the member's default. */
    browserTimeZone: text('browser_time_zone'),
    /**
     * A session begun by single sign-on: the provider configuration it was
     * begun with (issuer, client id), whose refresh token for the member
     * (ssoRefreshTokens) the periodic check presents to learn whether they may
     * still sign in there (auth/sso/session-check.ts); without one, the
     * session's own access token, until it expires. Secret; never answered,
     * never logged.
     */
    ssoIssuer: text('sso_issuer'),
    ssoClientId: text('sso_client_id'),
    ssoAccessToken: text('sso_access_token'),
    ssoAccessExpiresAt: at('sso_access_expires_at'),
    ssoCheckedAt: at('sso_checked_at'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_staff_idx').on(t.staffId),
  ],
);

/**
 * Failed sign-ins, counted per account and per address over a sliding window.
 * In the database so that several console servers agree on the count.
 */
export const loginFailures = consoleSchema.table(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: at('at').notNull(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
  },
  (t) => [
    index('login_failures_email_idx').on(t.email, t.at),
    index('login_failures_ip_idx').on(t.ip, t.at),
  ],
);

/**
 * Append-only: no code path updates or deletes a row, and a trigger (migration
 * 0002) refuses UPDATE and DELETE outright. Ordered by `id`, which only grows.
 */
export const auditLog = consoleSchema.table(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: at('at').notNull(),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    action: text('action').notNull(),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    /** Never holds a secret or a full account number. */
    summary: text('summary').notNull(),
    outcome: text('outcome', { enum: AUDIT_OUTCOMES }).notNull(),
    requestId: text('request_id'),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_actor_idx').on(t.actorId, t.id),
    index('audit_log_entity_idx').on(t.entityId, t.id),
    index('audit_log_at_idx').on(t.at),
    oneOf('audit_log', t.outcome, AUDIT_OUTCOMES),
  ],
);

/**
 * Upstream mode: which staff member created each entity the console sent to
 * the custody API. Upstream sees one API user for everyone, so the console's
 * own four-eyes rule needs this to refuse a member's decision on their own
 * transaction or bank account. Both are recorded before they are sent (a
 * transaction by its externalId, a bank account by its fingerprint), so
 * even one whose answer was lost, or is still on its way, has its creator.
 */
export const upstreamCreators = consoleSchema.table(
  'upstream_creators',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entityType: text('entity_type', { enum: UPSTREAM_ENTITY_TYPES }).notNull(),
    /** The custody API's id; null until its answer arrives. */
    entityId: text('entity_id'),
    /**
     * Transactions: their externalId, unique per organization upstream, so it
     * names one transaction. Bank accounts (no externalId on the wire): a
     * keyed fingerprint of the proposal (rail, account and routing number,
     * holder), matched against an account whose creator is otherwise unknown.
     */
    externalId: text('external_id'),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('upstream_creators_entity_unique').on(t.entityId),
    // Per member: two members sending one externalId are both its possible creators.
    uniqueIndex('upstream_creators_external_staff_unique').on(
      t.entityType,
      t.externalId,
      t.staffId,
    ),
    index('upstream_creators_staff_idx').on(t.staffId),
    oneOf('upstream_creators', t.entityType, UPSTREAM_ENTITY_TYPES),
  ],
);

/**
 * Upstream mode: the entity each approval id belongs to, learnt when the
 * console fetched the approval message. A decision names only the approval
 * id, and the console must know the entity to check scope and four-eyes.
 */
export const upstreamApprovals = consoleSchema.table('upstream_approvals', {
  approvalId: text('approval_id').primaryKey(),
  entityId: text('entity_id').notNull(),
  seenAt: at('seen_at').notNull(),
});

/**
 * A member's second factor (auth/second-factor.ts): the TOTP secret, the
 * newest time step accepted (a code of that step or an older one is refused,
 * so a code seen over a shoulder or in a proxy's log cannot be used again),
 * and the throttle on guessing this member's second factor — or, on the
 * account page, their password. A row may hold only the throttle (a member
 * not enrolled whose password was re-checked).
 */
export const staffFactors = consoleSchema.table('staff_factors', {
  staffId: text('staff_id')
    .primaryKey()
    .references(() => staff.id),
  /** Base32. Never logged, never answered after enrolment; null: not enrolled. */
  secret: text('secret'),
  enrolledAt: at('enrolled_at'),
  /** The newest TOTP time step (30 s since the epoch) accepted from this member. */
  lastStep: bigint('last_step', { mode: 'number' }),
  /** Tries in the current window, each counted before it is checked; a success sets it to 0. */
  failures: integer('failures').notNull().default(0),
  lastFailureAt: at('last_failure_at'),
});

/** Ten single-use codes per enrolment, stored as SHA-256 (they are random, not chosen). */
export const staffRecoveryCodes = consoleSchema.table(
  'staff_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    codeHash: text('code_hash').notNull(),
    createdAt: at('created_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('staff_recovery_codes_unique').on(t.staffId, t.codeHash)],
);

/**
 * A member's passkeys and security keys (WebAuthn credentials), each named by
 * the member. The public key is what every later assertion is verified with;
 * the counter is the authenticator's signature count, which must grow with
 * each use when the authenticator keeps one (synced passkeys answer 0).
 */
export const staffPasskeys = consoleSchema.table(
  'staff_passkeys',
  {
    id: text('id').primaryKey(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    /** The credential id, base64url, as the browser names it. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    /** How the browser may reach it (`internal`, `hybrid`, `usb`, `nfc`, `ble`...). */
    transports: jsonb('transports').$type<string[]>().notNull(),
    /** Synced to the member's other devices (`multiDevice`) or held by one (`singleDevice`). */
    multiDevice: boolean('multi_device').notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    uniqueIndex('staff_passkeys_credential_unique').on(t.credentialId),
    index('staff_passkeys_staff_idx').on(t.staffId),
  ],
);

/**
 * The step between a right password and a session (`verify`: a code of the
 * member's factor; `enrol`: the first code of a new one), and an enrolment
 * begun on the account page (`reenrol`). Short-lived, single-use, five
 * wrong codes each; the id the browser holds is stored as its SHA-256.
 */
export const signInChallenges = consoleSchema.table(
  'sign_in_challenges',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    kind: text('kind', { enum: CHALLENGE_KINDS }).notNull(),
    /** enrol and reenrol: the secret being set up, until its first code confirms it. */
    pendingSecret: text('pending_secret'),
    /**
     * The WebAuthn challenge (base64url) the member's authenticator must sign: a sign-in's
     * `verify` step when the member has passkeys, and a passkey's registration (`passkey`).
     * Not secret; single-use with its step.
     */
    webauthnChallenge: text('webauthn_challenge'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** Codes tried, counted before each is checked. */
    attempts: integer('attempts').notNull().default(0),
    usedAt: at('used_at'),
  },
  (t) => [
    uniqueIndex('sign_in_challenges_token_hash_unique').on(t.tokenHash),
    index('sign_in_challenges_staff_idx').on(t.staffId),
    index('sign_in_challenges_expires_idx').on(t.expiresAt),
    oneOf('sign_in_challenges', t.kind, CHALLENGE_KINDS),
  ],
);

const POLICY_STATUSES = ['DRAFT', 'ACTIVE', 'RETIRED'] as const;

/**
 * Approval policies, every version kept (contract/policies.ts, PolicyVersion).
 * At most one draft and one active version per kind (partial unique indexes);
 * no active row: the built-in default, version 0. A draft's `version` is null
 * until it is published.
 */
export const approvalPolicies = consoleSchema.table(
  'approval_policies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: POLICY_KINDS }).notNull(),
    version: integer('version'),
    status: text('status', { enum: POLICY_STATUSES }).notNull(),
    document: jsonb('document').$type<Policy>().notNull(),
    revision: integer('revision').notNull(),
    basedOn: integer('based_on'),
    /** Every member who saved this draft: none of them may publish it. */
    editorIds: jsonb('editor_ids').$type<string[]>().notNull(),
    updatedAt: at('updated_at').notNull(),
    publishedBy: text('published_by').references(() => staff.id),
    publishedAt: at('published_at'),
  },
  (t) => [
    uniqueIndex('approval_policies_version_unique').on(t.kind, t.version),
    uniqueIndex('approval_policies_one_draft')
      .on(t.kind)
      .where(sql`${t.status} = 'DRAFT'`),
    uniqueIndex('approval_policies_one_active')
      .on(t.kind)
      .where(sql`${t.status} = 'ACTIVE'`),
    oneOf('approval_policies', t.kind, POLICY_KINDS),
    oneOf('approval_policies', t.status, POLICY_STATUSES),
  ],
);

/**
 * An approvable kind's name (capabilities/approvals/core/): the kinds the
 * code declares are the list, so a new kind needs no migration; the database
 * holds the column to a name's form.
 */
function approvableKindName(table: string, column: { readonly name: string }) {
  return check(
    `${table}_${column.name}_kind_name`,
    sql.raw(`"${column.name}" ~ '^[A-Z][A-Z_]{0,39}$'`),
  );
}
const POLICY_ACTOR_TYPES = ['STAFF', 'API_USER'] as const;
const POLICY_DECISIONS = ['APPROVE', 'DECLINE'] as const;
const POLICY_SETTLEMENTS = ['APPROVED', 'DECLINED'] as const;

/**
 * What each item needs, frozen when it was created (contract/policies.ts,
 * FrozenRequirement): a later policy cannot loosen what is pending. The row is
 * also the lock decisions on the item take, so two approvers at the same
 * instant are counted one after the other.
 */
export const approvalRequirements = consoleSchema.table(
  'approval_requirements',
  {
    entityId: text('entity_id').primaryKey(),
    entityType: text('entity_type').notNull(),
    requirement: jsonb('requirement').$type<FrozenRequirement>().notNull(),
    initiatorType: text('initiator_type', { enum: POLICY_ACTOR_TYPES }).notNull(),
    initiatorId: text('initiator_id').notNull(),
    /** The initiator's role when they created it (null: an API client). */
    initiatorRole: text('initiator_role', { enum: STAFF_ROLES }),
    createdAt: at('created_at').notNull(),
    /** The quorum's outcome once reached; sent to the custody API once, then `sentAt`. */
    settled: text('settled', { enum: POLICY_SETTLEMENTS }),
    /** A request sending the outcome holds this while it does; cleared if the send fails. */
    sendingSince: at('sending_since'),
    sentAt: at('sent_at'),
  },
  (t) => [
    approvableKindName('approval_requirements', t.entityType),
    oneOf('approval_requirements', t.initiatorType, POLICY_ACTOR_TYPES),
    oneOf('approval_requirements', t.settled, POLICY_SETTLEMENTS),
    oneOf('approval_requirements', t.initiatorRole, STAFF_ROLES),
  ],
);

/** Each approver's decision on an item, once: the primary key makes a second one a no-op. */
export const approvalVotes = consoleSchema.table(
  'approval_votes',
  {
    /** The order decisions were recorded in: the tally reads them in it. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    entityId: text('entity_id')
      .notNull()
      .references(() => approvalRequirements.entityId),
    actorType: text('actor_type', { enum: POLICY_ACTOR_TYPES }).notNull(),
    actorId: text('actor_id').notNull(),
    /** The approver's role when they decided (null: an API client). */
    actorRole: text('actor_role', { enum: STAFF_ROLES }),
    decision: text('decision', { enum: POLICY_DECISIONS }).notNull(),
    reason: text('reason'),
    at: at('at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entityId, t.actorType, t.actorId] }),
    oneOf('approval_votes', t.actorType, POLICY_ACTOR_TYPES),
    oneOf('approval_votes', t.decision, POLICY_DECISIONS),
    oneOf('approval_votes', t.actorRole, STAFF_ROLES),
  ],
);

/** The custody webhooks' events, as the console stores them (contract/live-events.ts maps them). */
export const CUSTODY_EVENT_TYPES = [
  'TRANSACTION_STATUS_CHANGED',
  'TRANSACTION_OPERATION_STATUS_CHANGED',
] as const;

/**
 * Status changes the custody service reported (upstream mode: its webhooks,
 * through capabilities/live/sink.ts), in the order they arrived: the log every
 * console server's event stream tails (capabilities/live/), and the receiver's
 * record of what it accepted: `event_id` is the provider's, and its unique
 * index refuses a replay (409), so a delivery repeated is stored once. A
 * trigger NOTIFYs `custody_live` at commit (migration 0013), waking the
 * streams of every server on the database. Rows are kept two days (longer
 * than a sender's day of retries), then pruned.
 */
export const custodyEvents = consoleSchema.table(
  'custody_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull(),
    type: text('type', { enum: CUSTODY_EVENT_TYPES }).notNull(),
    transactionId: text('transaction_id').notNull(),
    subOrgId: text('sub_org_id'),
    status: text('status').notNull(),
    /** When the status changed, as the provider says. */
    at: at('at').notNull(),
    /** When this console stored it (the pruning's clock). */
    receivedAt: at('received_at').notNull(),
  },
  (t) => [
    uniqueIndex('custody_events_event_id_key').on(t.eventId),
    index('custody_events_received_idx').on(t.receivedAt),
    oneOf('custody_events', t.type, CUSTODY_EVENT_TYPES),
  ],
);

/**
 * What a console approval event says happened (contract/live-events.ts); PROGRESS: a payment
 * run's rows or status moved after its approval (`payment_run.progress`, status the run's).
 */
export const APPROVAL_EVENT_KINDS = ['PROPOSED', 'DECIDED', 'VOTE', 'PROGRESS'] as const;
const APPROVAL_EVENT_STATUSES = [
  'PENDING',
  'APPROVED',
  'REJECTED',
  'APPROVE',
  'DECLINE',
  'WITHDRAWN',
  ...PAYMENT_RUN_STATUSES.filter((s) => s !== 'APPROVED'),
] as const;

/**
 * Approval-side changes the console itself records, in order, for the event
 * stream (capabilities/live/) to tail: each member's decision on an item an
 * approval policy holds (written with the vote, in its database transaction,
 * by policies/votes.store.ts), in upstream mode the proposals and
 * decisions of bank accounts and contacts made through this console, and a
 * payment run's progress as it executes (payment-runs/live.ts). A
 * trigger NOTIFYs `custody_live` at commit (migration 0017). Rows older than
 * a day are pruned, as custody events are.
 */
export const approvalEvents = consoleSchema.table(
  'approval_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: APPROVAL_EVENT_KINDS }).notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    subOrgId: text('sub_org_id'),
    status: text('status', { enum: APPROVAL_EVENT_STATUSES }).notNull(),
    at: at('at').notNull(),
  },
  (t) => [
    index('approval_events_at_idx').on(t.at),
    oneOf('approval_events', t.kind, APPROVAL_EVENT_KINDS),
    approvableKindName('approval_events', t.entityType),
    oneOf('approval_events', t.status, APPROVAL_EVENT_STATUSES),
  ],
);

/** The two decisions a signed approval binds (contract/approval-signature.ts). */
const SIGNING_ACTIONS = ['approve', 'reject'] as const;
const SIGNED_DECISIONS = ['APPROVED', 'REJECTED'] as const;

/**
 * One-time nonces of signed approvals: each is bound to the member, the item,
 * the decision and the digest of the card they were shown (the card's intent
 * kept as canonical JSON: what the passkey signs over), lives a few minutes,
 * and is used at most once (`used_at` set by one conditional update).
 */
export const approvalSigningNonces = consoleSchema.table(
  'approval_signing_nonces',
  {
    nonce: text('nonce').primaryKey(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    entityId: text('entity_id').notNull(),
    action: text('action', { enum: SIGNING_ACTIONS }).notNull(),
    digest: text('digest').notNull(),
    card: text('card').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [
    index('approval_signing_nonces_expires_idx').on(t.expiresAt),
    oneOf('approval_signing_nonces', t.action, SIGNING_ACTIONS),
  ],
);

/**
 * Every staff decision on an approvable item, under a policy rule or not: the
 * digest and canonical JSON of the card decided on and, when signed, the
 * nonce, the WebAuthn assertion as the browser sent it, the credential and a
 * copy of its public key (a passkey may be removed later; its signatures must
 * still verify), and the relying party it was made for. Enough to check each
 * signature again offline. `voided_because` says why a vote stopped counting
 * (the card changed before the item moved on).
 */
export const approvalSignatures = consoleSchema.table(
  'approval_signatures',
  {
    id: text('id').primaryKey(),
    entityId: text('entity_id').notNull(),
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    staffName: text('staff_name').notNull(),
    decision: text('decision', { enum: SIGNED_DECISIONS }).notNull(),
    decidedAt: at('decided_at').notNull(),
    scheme: text('scheme').notNull(),
    digest: text('digest').notNull(),
    card: text('card').notNull(),
    nonce: text('nonce'),
    credentialId: text('credential_id'),
    credentialName: text('credential_name'),
    /** "passkey" or "security key" (contract/auth.ts PASSKEY_KINDS), as the member's page named it then. */
    credentialKind: text('credential_kind').$type<PasskeyKind>(),
    publicKey: text('public_key'),
    assertion: jsonb('assertion').$type<PasskeyAssertion>(),
    rpId: text('rp_id'),
    origin: text('origin'),
    voidedBecause: text('voided_because'),
    voidedAt: at('voided_at'),
  },
  (t) => [
    index('approval_signatures_entity_idx').on(t.entityId, t.decidedAt),
    oneOf('approval_signatures', t.decision, SIGNED_DECISIONS),
  ],
);

/**
 * Payment runs (capabilities/payment-runs/): many payouts approved once as a
 * whole. `rows_digest` is the digest of the rows as they will be paid, which
 * the approval card carries (a row edited after a vote changes it and voids
 * the vote); `errors` and `simulation` are the last check's.
 */
export const paymentRuns = consoleSchema.table(
  'payment_runs',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    status: text('status', { enum: PAYMENT_RUN_STATUSES }).notNull(),
    subOrgId: text('sub_org_id'),
    createdById: text('created_by_id').notNull(),
    /**
     * The members other than its maker who changed its rows, in the order they first did: they
     * wrote part of what it pays, so its submit keeps them from approving it, as its maker.
     */
    editorIds: jsonb('editor_ids').$type<string[]>().notNull().default([]),
    rowsDigest: text('rows_digest').notNull(),
    errors: jsonb('errors').$type<PaymentCheckError[]>().notNull(),
    simulation: jsonb('simulation').$type<PaymentRunSimulation>(),
    /** An occurrence approved by its schedule's pre-approval: which, when and by whom. */
    preApproved: jsonb('pre_approved').$type<RunPreApproval>(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('payment_runs_status_idx').on(t.status),
    oneOf('payment_runs', t.status, PAYMENT_RUN_STATUSES),
  ],
);

/**
 * A run's rows, numbered from 1 in the order given. `external_id` is derived
 * from the run and the row (contract/payment-runs.ts), unique here as at the
 * custody API, so a row is never sent as two transactions.
 */
export const paymentRunRows = consoleSchema.table(
  'payment_run_rows',
  {
    runId: text('run_id')
      .notNull()
      .references(() => paymentRuns.id),
    index: integer('index').notNull(),
    kind: text('kind', { enum: PAYMENT_ROW_KINDS }).notNull(),
    sourceVaultId: text('source_vault_id').notNull(),
    contactId: text('contact_id'),
    address: text('address'),
    bankAccountId: text('bank_account_id'),
    asset: text('asset').notNull(),
    blockChain: text('block_chain').notNull(),
    amount: text('amount').notNull(),
    reference: text('reference').notNull(),
    memo: text('memo'),
    status: text('status', { enum: PAYMENT_ROW_STATUSES }).notNull(),
    errors: jsonb('errors').$type<PaymentCheckError[]>().notNull(),
    externalId: text('external_id').notNull(),
    transactionId: text('transaction_id'),
    /** Why the custody backend refused the row's transaction, or why it failed. */
    failure: text('failure'),
    /**
     * The row's USD value as judged when the run was submitted: until its
     * transaction exists, a vault's 24-hour outflow counts it (the run's
     * whole total is committed at submit). Null before submit or unpriced.
     */
    amountUsd: text('amount_usd'),
    /** The row's attempt: a failed row retried is sent again under a new externalId. */
    attempt: integer('attempt').notNull().default(1),
    /** Reconciliation, read from the row's transaction once it ends. */
    txHash: text('tx_hash'),
    feeAmount: text('fee_amount'),
    feeAsset: text('fee_asset'),
    feeUsd: text('fee_usd'),
    completedAt: timestamp('completed_at', { precision: 3, withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.index] }),
    uniqueIndex('payment_run_rows_external_id_key').on(t.externalId),
    index('payment_run_rows_reference_idx').on(t.reference, t.status),
    oneOf('payment_run_rows', t.kind, PAYMENT_ROW_KINDS),
    oneOf('payment_run_rows', t.status, PAYMENT_ROW_STATUSES),
  ],
);

/**
 * A payment run's schedule: the rows of the checked run it was made from
 * (that draft is removed as it becomes the schedule), paid on its timing,
 * each occurrence a run of its own. `next_due_at` is the next occurrence's
 * instant, null once none is left; the scheduler makes a due occurrence and
 * moves it on in one transaction under the schedule's row lock.
 */
export const paymentRunSchedules = consoleSchema.table(
  'payment_run_schedules',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    subOrgId: text('sub_org_id'),
    createdById: text('created_by_id').notNull(),
    status: text('status', { enum: SCHEDULE_STATUSES }).notNull(),
    timing: jsonb('timing').$type<ScheduleTiming>().notNull(),
    rows: jsonb('rows').$type<PaymentRowInput[]>().notNull(),
    nextDueAt: at('next_due_at'),
    occurrencesMade: integer('occurrences_made').notNull().default(0),
    /** The cap its occurrences may pay without a vote, and its approval; null: none. */
    preApproval: jsonb('pre_approval').$type<SchedulePreApproval>(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('payment_run_schedules_due_idx').on(t.status, t.nextDueAt),
    oneOf('payment_run_schedules', t.status, SCHEDULE_STATUSES),
  ],
);

/**
 * One occurrence of a schedule: made once (the key is the schedule and the
 * due time, and the run's id is derived from both), then checked and put up
 * for approval by the scheduler, which marks it `handled_at` once done (the
 * run is then its members', as any run); `failure` says why it could not be
 * put up (check errors to fix, a rule that blocks it).
 */
export const paymentRunOccurrences = consoleSchema.table(
  'payment_run_occurrences',
  {
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => paymentRunSchedules.id),
    dueAt: at('due_at').notNull(),
    runId: text('run_id')
      .notNull()
      .references(() => paymentRuns.id),
    handledAt: at('handled_at'),
    failure: text('failure'),
  },
  (t) => [
    primaryKey({ columns: [t.scheduleId, t.dueAt] }),
    uniqueIndex('payment_run_occurrences_run_id_key').on(t.runId),
    index('payment_run_occurrences_unhandled_idx').on(t.handledAt),
  ],
);

/**
 * Closing a month of the treasury ledger (capabilities/ledger/periods/): one
 * row per proposal, the held item `ledger-period-<id>`. `from` and `to` are the
 * month's ends in `time_zone`. Once CLOSED, `closings` and `digest` freeze the
 * organization's statement of the month, and the sandbox books any movement
 * dated before the latest closed `to` at that `to` instead
 * (custody/sandbox/engine/movements.ts): a closed month's movements never change.
 * At most one proposal or close per month (a declined one may be proposed again).
 */
export const ledgerPeriods = consoleSchema.table(
  'ledger_periods',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: text('org_id').notNull(),
    month: text('month').notNull(),
    timeZone: text('time_zone').notNull(),
    from: at('starts_at').notNull(),
    to: at('ends_at').notNull(),
    status: text('status', { enum: LEDGER_PERIOD_STATUSES }).notNull(),
    proposedBy: text('proposed_by').notNull(),
    proposedAt: at('proposed_at').notNull(),
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
    closings: jsonb('closings').$type<LedgerPeriodClosing[]>(),
    digest: text('digest'),
    /**
     * While PENDING, what its card shows, computed once and again only when
     * a movement booked before `to` is written after `through` (the last
     * movement id it covers): a card read no longer reads the whole month.
     */
    cardFacts: jsonb('card_facts').$type<{
      closings: LedgerPeriodClosing[];
      digest: string;
      through: number;
    }>(),
  },
  (t) => [
    uniqueIndex('ledger_periods_open_month_idx')
      .on(t.orgId, t.month)
      .where(sql`${t.status} <> 'DECLINED'`),
    index('ledger_periods_org_closed_idx').on(t.orgId, t.status, t.to),
    oneOf('ledger_periods', t.status, LEDGER_PERIOD_STATUSES),
  ],
);

/** The accounting journal's account mapping (capabilities/ledger/journal/), one per organization. */
export const ledgerJournalMappings = consoleSchema.table('ledger_journal_mappings', {
  orgId: text('org_id').primaryKey(),
  mapping: jsonb('mapping').$type<JournalMapping>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * Single sign-on with the company's OpenID provider (auth/sso/): one row,
 * id `oidc`, written by an admin. The client secret stays here: it is never
 * answered (the settings say only whether one is set) and never logged.
 */
export const ssoSettings = consoleSchema.table(
  'sso_settings',
  {
    id: text('id').primaryKey(),
    enabled: boolean('enabled').notNull(),
    /** What the sign-in page's button says: "Sign in with {label}". */
    label: text('label').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret').notNull(),
    /** The ID token or userinfo claim listing the member's groups. */
    groupsClaim: text('groups_claim').notNull(),
    /** Space-separated scopes asked for, `openid` among them. */
    scopes: text('scopes').notNull(),
    passwordSignIn: text('password_sign_in', { enum: PASSWORD_SIGN_IN }).notNull(),
    /** With `break_glass`: the one member who still signs in with a password. */
    breakGlassEmail: text('break_glass_email'),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by'),
  },
  (t) => [oneOf('sso_settings', t.passwordSignIn, PASSWORD_SIGN_IN)],
);

/**
 * A provider group (an OpenID groups claim's value, or a SCIM group's
 * displayName) and the role and sub-organizations its members get.
 */
export const ssoGroupRoles = consoleSchema.table(
  'sso_group_roles',
  {
    groupName: text('group_name').primaryKey(),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** Null: every sub-organization. */
    subOrgIds: jsonb('sub_org_ids').$type<string[] | null>(),
  },
  (t) => [oneOf('sso_group_roles', t.role, STAFF_ROLES)],
);

/**
 * A member's latest refresh token from the company's provider, one per
 * provider configuration (issuer and client id): kept per member, not per
 * session, since providers such as Google issue one at the first consent
 * only, and one the provider rotates on use must be presented as it was last
 * given. Every single sign-on session of the member under that configuration
 * is checked with it (auth/sso/session-check.ts). Secret; never answered,
 * never logged.
 */
export const ssoRefreshTokens = consoleSchema.table(
  'sso_refresh_tokens',
  {
    staffId: text('staff_id')
      .notNull()
      .references(() => staff.id),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    refreshToken: text('refresh_token').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.staffId, t.issuer, t.clientId] })],
);

/** What became of a single sign-on change held for another admin (capabilities/approvals/sso-change). */
const SSO_CHANGE_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'WITHDRAWN'] as const;

/**
 * A single sign-on save that widens who may sign in or what they may do
 * (contract/sso-widening.ts), held until another admin of every
 * sub-organization approves it; applied then, as saved.
 */
export const ssoChanges = consoleSchema.table(
  'sso_changes',
  {
    id: text('id').primaryKey(),
    /** The settings as saved, but the secret (contract/sso.ts UpdateSsoSettings without it). */
    settings: jsonb('settings').$type<UpdateSsoSettings>().notNull(),
    /** A new client secret, when the save replaced it; null keeps the one in force. */
    clientSecret: text('client_secret'),
    /** Why it waits for another admin: one sentence a reason. */
    widens: jsonb('widens').$type<string[]>().notNull(),
    /** What the save changes, field by field, before → after (never a secret): the audit's words. */
    summary: text('summary').notNull(),
    /**
     * The card's lines, each setting and group mapping before → after, as the
     * settings stood when it was proposed: any later save withdraws it, so
     * they hold while it waits, and still say what changed once applied.
     */
    lines: jsonb('lines').$type<CardChangeLine[]>().notNull(),
    proposedBy: text('proposed_by')
      .notNull()
      .references((): AnyPgColumn => staff.id),
    proposedAt: at('proposed_at').notNull(),
    status: text('status', { enum: SSO_CHANGE_STATUSES }).notNull(),
    decidedBy: text('decided_by').references((): AnyPgColumn => staff.id),
    decidedAt: at('decided_at'),
  },
  (t) => [oneOf('sso_changes', t.status, SSO_CHANGE_STATUSES)],
);

/** Bearer tokens of SCIM clients (auth/sso/scim.routes.ts): only their SHA-256 is kept. */
export const scimTokens = consoleSchema.table(
  'scim_tokens',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: text('created_by'),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('scim_tokens_token_hash_unique').on(t.tokenHash)],
);

/** Groups a SCIM client pushed, with their members (staff ids). */
export const scimGroups = consoleSchema.table(
  'scim_groups',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    externalId: text('external_id'),
    memberIds: jsonb('member_ids').$type<string[]>().notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('scim_groups_display_name_unique').on(t.displayName)],
);

/**
 * The SMTP server notifications are emailed through (capabilities/notifications/): one row,
 * `id` 'smtp'. The password is kept here, server-side, and never answered back.
 */
export const notificationSmtp = consoleSchema.table(
  'notification_smtp',
  {
    id: text('id').primaryKey(),
    host: text('host').notNull(),
    port: integer('port').notNull(),
    security: text('security', { enum: SMTP_SECURITY }).notNull(),
    username: text('username'),
    password: text('password'),
    fromAddress: text('from_address').notNull(),
    enabled: boolean('enabled').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by'),
  },
  (t) => [oneOf('notification_smtp', t.security, SMTP_SECURITY)],
);

/** A team's incoming chat webhook: a sub-organization's, or (null) the whole organization's. */
export const notificationChatTargets = consoleSchema.table(
  'notification_chat_targets',
  {
    id: text('id').primaryKey(),
    subOrgId: text('sub_org_id'),
    url: text('url').notNull(),
    format: text('format', { enum: CHAT_FORMATS }).notNull(),
    description: text('description').notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: text('created_by'),
  },
  (t) => [oneOf('notification_chat_targets', t.format, CHAT_FORMATS)],
);

/** A member's notification choices (contract/notifications.ts); none: the defaults. */
export const notificationPreferences = consoleSchema.table('notification_preferences', {
  staffId: text('staff_id')
    .primaryKey()
    .references(() => staff.id),
  events: jsonb('events').$type<NotificationEvent[]>().notNull(),
  email: boolean('email').notNull(),
  digest: boolean('digest').notNull(),
  digestHour: integer('digest_hour').notNull(),
  /** The last digest's day (YYYY-MM-DD in the member's zone): one a day. */
  lastDigestDay: text('last_digest_day'),
  updatedAt: at('updated_at').notNull(),
});

/**
 * How far the notifier has read each event log (the live sources', by name): it resumes
 * there after a restart, so no event is told twice or missed.
 */
export const notificationCursors = consoleSchema.table('notification_cursors', {
  source: text('source').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
});

/**
 * The notifications queue and delivery log: one row per message to one recipient on one
 * channel, sent with retries (capabilities/notifications/deliver.ts). `dedupe_key` makes a
 * message derived twice (two servers, a replayed pass) one row.
 */
export const notifications = consoleSchema.table(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dedupeKey: text('dedupe_key').notNull(),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    /** The member's id (email) or the chat target's id. */
    recipientId: text('recipient_id').notNull(),
    /** The email address, or the chat webhook's origin and team, as the log shows it. */
    recipient: text('recipient').notNull(),
    event: text('event', { enum: NOTIFICATION_EVENTS }).notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull(),
    attempts: integer('attempts').notNull(),
    nextAttemptAt: at('next_attempt_at'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    sentAt: at('sent_at'),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key_unique').on(t.dedupeKey),
    index('notifications_due_idx').on(t.status, t.nextAttemptAt),
    index('notifications_created_idx').on(t.createdAt),
    oneOf('notifications', t.channel, NOTIFICATION_CHANNELS),
    oneOf('notifications', t.event, NOTIFICATION_EVENTS),
    oneOf('notifications', t.status, NOTIFICATION_STATUSES),
  ],
);

/**
 * Upstream mode: the treasury ledger the console reconstructs from the
 * custody API (capabilities/ledger/upstream/), one row per change to a
 * vault's balance: a completed transaction's balance changes (its fee a
 * movement of its own), the opening balance worked back from the first
 * balances read, and what a later read found that no listed transaction
 * explains. `seq` numbers a transaction's movements, so a transaction read
 * again adds nothing.
 */
export const upstreamLedgerMovements = consoleSchema.table(
  'upstream_ledger_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    vaultId: text('vault_id').notNull(),
    /** The vault's sub-organization as upstream listed it, for a member held to theirs. */
    subOrgId: text('sub_org_id'),
    asset: text('asset').notNull(),
    chain: text('chain').notNull(),
    kind: text('kind', { enum: LEDGER_MOVEMENT_KINDS }).notNull(),
    amount: numeric('amount').notNull(),
    /** The asset's price in USD at the first balances read after the movement was seen. */
    usdPrice: numeric('usd_price').notNull(),
    /** Null for an adjustment; `key` names it then. */
    transactionId: text('transaction_id'),
    /** `tx:<id>:<seq>` for a transaction's movement, `sync:<n>:<vault>:<asset>:<chain>` for an adjustment. */
    key: text('key').notNull(),
    counterparty: jsonb('counterparty').$type<Party>(),
    reference: text('reference'),
    memo: text('memo'),
    at: at('at').notNull(),
  },
  (t) => [
    uniqueIndex('upstream_ledger_movements_key_unique').on(t.key),
    index('upstream_ledger_movements_vault_at_idx').on(t.vaultId, t.at, t.id),
    index('upstream_ledger_movements_at_idx').on(t.at, t.id),
    oneOf('upstream_ledger_movements', t.kind, LEDGER_MOVEMENT_KINDS),
  ],
);

/**
 * Upstream mode: where the ledger's reading of the custody API stands (one
 * row). `frontier` is the creation time from which the next sync lists
 * transactions (the oldest one still on its way, else the newest seen);
 * `resumeCursor` the next page of a sync cut short, so it goes on from there.
 */
export const upstreamLedgerSync = consoleSchema.table('upstream_ledger_sync', {
  id: text('id').primaryKey(),
  frontier: text('frontier'),
  resumeCursor: text('resume_cursor'),
  /** Syncs completed; names each one's adjustments. */
  syncs: integer('syncs').notNull(),
  /** Before this, nothing is known: the opening balance is booked at it. Null until the first sync ends. */
  knownFrom: at('known_from'),
  syncedAt: at('synced_at'),
});
