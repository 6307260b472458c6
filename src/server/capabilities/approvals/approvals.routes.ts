import { Hono } from 'hono';
import { ERROR_CODES } from '#contract/common.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';
import type { AuditHooks } from '../../http/mount.ts';
import { decideSigned, type SigningOptions } from './signing/signed-decision.ts';

const DECIDED: Record<string, string> = {
  'change_request.approve': 'approved',
  'change_request.reject': 'rejected',
};

// Ids of every entity are short printable strings; anything else names nothing.
const IMPOSSIBLE_ID = /\p{Cc}/u;

/**
 * A decision's audit row, for every approvable kind: only the decision is read from the
 * body, and a member's signed intent's digest and credential id (verified on a success):
 * never a signature or a reason's free text.
 */
export const DECISION_AUDIT: Required<Pick<AuditHooks, 'fromRequest' | 'summary'>> = {
  fromRequest: (body) => {
    const decision =
      body && typeof body === 'object' ? (body as { action?: unknown }).action : undefined;
    const note = intentNote(body);
    return {
      ...(decision === 'approve' || decision === 'reject'
        ? { action: `change_request.${decision}` }
        : {}),
      ...(note ? { note } : {}),
    };
  },
  summary: (answer, action) => {
    const decided = DECIDED[action] ?? 'decided';
    const status = typeof answer['status'] === 'string' ? answer['status'] : '';
    return `Change request ${decided}${status ? `, status ${status}` : ''}`;
  },
};

/**
 * Change-request approvals for bank accounts, transactions,
 * contacts and vaults: fetch the message to sign, then approve or reject.
 */
export function approvalRoutes(backend: CustodyBackend, signing?: SigningOptions) {
  const app = new Hono<AppEnv>();
  mountCustody(
    app,
    approvalMessage,
    ({ query }, c) => backend.getApprovalMessage(custodyContext(c), query.entityId),
    { query: (c) => ({ entityId: entityIdOf(c.req.query('entityId')) }) },
  );
  mountCustody(
    app,
    decideApproval,
    // A member's decision is held to the card they were shown and, when they must sign, to
    // their passkey's signature over it (signing/); an API client's passes through unchanged.
    ({ params, body }, c) => {
      const decide = (request: typeof body) =>
        backend.decideApproval(custodyContext(c), params.approvalId, request);
      return signing ? decideSigned(signing, c, params.approvalId, body, decide) : decide(body);
    },
    {
      audit: {
        // A refusal names only the approval; it is filed under the bank account or
        // transaction it decides, like the approval that succeeds (its answer's entityId).
        entityOf: async (approvalId, c) =>
          (await backend.approvalEntityId?.(custodyContext(c), approvalId)) ?? null,
        ...DECISION_AUDIT,
      },
    },
  );
  return app;
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;
const CREDENTIAL_ID = /^[A-Za-z0-9_-]{1,1400}$/;

/** "intent 3f9a…(64 hex), passkey <credential id>": what a member's decision was made on. */
function intentNote(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const intent = (body as { intent?: unknown }).intent;
  if (!intent || typeof intent !== 'object') return undefined;
  const { digest, credential } = intent as { digest?: unknown; credential?: unknown };
  if (typeof digest !== 'string' || !HEX_DIGEST.test(digest)) return undefined;
  const id =
    credential && typeof credential === 'object' ? (credential as { id?: unknown }).id : undefined;
  const signed =
    typeof id === 'string' && CREDENTIAL_ID.test(id) ? `, passkey ${id}` : ', unsigned';
  return `intent ${digest}${signed}`;
}

/** The message's entity: required, and one no entity could have is simply not found. */
function entityIdOf(entityId: string | undefined): string {
  if (!entityId) {
    const message =
      'entityId is required: the id of the bank account, transaction, contact or vault';
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'entityId', message }]);
  }
  if (entityId.length > 200 || IMPOSSIBLE_ID.test(entityId)) {
    throw new ApiError(404, ERROR_CODES.notFound, 'No change request for that entity');
  }
  return entityId;
}
