import * as z from 'zod/mini';

/**
 * An operation's user action (the SDKs' getOperationMessageToSign and
 * updateUserAction): once a transaction from a vault that names an API user
 * among its signers is approved, its operation waits for one of them. The
 * signer reads the operation's message, signs it with their API key (as a
 * change-request approval's message is signed) and approves or refuses it.
 * It is no approval under the item's rule: it exists only once that rule is
 * met, and never moves an item the rule still holds.
 */

/** An operation's id: its transaction's id and its sequence, `<transactionId>.<sequence>`. */
export function operationIdOf(transactionId: string, sequence: number): string {
  return `${transactionId}.${sequence}`;
}

/** The transaction and sequence an operation id names, or null when it names none. */
export function parseOperationId(
  operationId: string,
): { transactionId: string; sequence: number } | null {
  const match = /^(.+)\.([1-9][0-9]{0,3})$/.exec(operationId);
  // eslint-disable-next-line no-restricted-syntax -- an operation's sequence, a count
  return match?.[1] && match[2] ? { transactionId: match[1], sequence: Number(match[2]) } : null;
}

export const OperationMessageResponse = z.looseObject({
  operationId: z.string(),
  transactionId: z.optional(z.string()),
  message: z.string(),
  status: z.optional(z.string()),
});
export type OperationMessageResponse = z.infer<typeof OperationMessageResponse>;

/** What both SDKs send: `{isApproved, signatureHex, operationId}`. */
export const OperationUserActionRequest = z.strictObject({
  isApproved: z.boolean('isApproved must be true or false'),
  signatureHex: z
    .string('signatureHex is required: the operation message signed with your API key, hex DER')
    .check(z.regex(/^(0x)?([0-9a-fA-F]{2})+$/, 'signatureHex must be hex bytes')),
  operationId: z.optional(
    z.string().check(z.maxLength(200, 'operationId must be at most 200 characters')),
  ),
});
export type OperationUserActionRequest = z.infer<typeof OperationUserActionRequest>;

export const OperationUserActionResponse = z.looseObject({
  success: z.boolean(),
  operationId: z.optional(z.string()),
  transactionId: z.optional(z.string()),
  /** The operation's status after the action: PROCESSING once approved, CANCELLED once refused. */
  status: z.optional(z.string()),
  transactionStatus: z.optional(z.string()),
});
export type OperationUserActionResponse = z.infer<typeof OperationUserActionResponse>;
