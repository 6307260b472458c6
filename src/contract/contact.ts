import { z } from 'zod';
import { canonicalContactAddress, contactAddressProblem } from './contact-address.ts';
import { displayTextProblem } from './display-text.ts';

/**
 * Proposing a contact (an address-book entry) and changing what it may
 * receive: the form's rules and the server's, one schema (classic zod, so it
 * loads with the form). The contact as answered is `Contact` in
 * `reference.ts`.
 *
 * A contact starts PENDING with a change request, approved or declined like
 * a bank account. An approved contact's asset list changes only through a
 * change request of its own: until it is approved the contact keeps (and
 * transfers are held to) the list approved before.
 */

export const CONTACT_NAME_MAX = 100;
export const CONTACT_TAGS_MAX = 20;
export const CONTACT_ASSETS_MAX = 50;

/** Text an approver reads must read as stored: no control, invisible or text-direction characters. */
const shownAsIs = (field: string) => (value: string, ctx: z.RefinementCtx) => {
  const problem = displayTextProblem(field, value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

const assetSymbol = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9._-]{1,20}$/,
    'assetList holds asset symbols like "USDC": 1 to 20 letters, digits, ".", "_" or "-"',
  );

/** Each symbol once, in the order given. */
const assetList = z
  .array(assetSymbol, 'assetList must be a list of asset symbols')
  .max(CONTACT_ASSETS_MAX, `assetList holds at most ${CONTACT_ASSETS_MAX} assets`)
  .transform((list) => [...new Set(list)]);

const tag = z
  .string()
  .trim()
  .min(1, 'tags must not be empty')
  .max(50, 'each tag is at most 50 characters')
  .superRefine(shownAsIs('tags'));

const ContactCreateFields = z.strictObject({
  name: z
    .string('name is required')
    .trim()
    .min(1, 'name is required')
    .max(CONTACT_NAME_MAX, `name must be at most ${CONTACT_NAME_MAX} characters`)
    .superRefine(shownAsIs('name')),
  address: z
    .string('address is required')
    .trim()
    .min(1, 'address is required')
    .max(200, 'address must be at most 200 characters'),
  blockChain: z
    .string('blockChain is required')
    .trim()
    .regex(/^[A-Z0-9_]{1,40}$/, 'blockChain is a chain value in capitals, like "ETHEREUM"'),
  tags: z
    .array(tag, 'tags must be a list of labels')
    .max(CONTACT_TAGS_MAX, `tags holds at most ${CONTACT_TAGS_MAX} labels`)
    .transform((list) => [...new Set(list)])
    .optional(),
  externalId: z
    .string()
    .trim()
    .min(1, 'externalId must not be empty')
    .max(128, 'externalId must be at most 128 characters')
    .superRefine(shownAsIs('externalId'))
    .optional(),
  /** The assets it may receive; empty or absent: any asset of its chain. */
  assetList: assetList.optional(),
  /** The address is a smart contract (a payment to it runs code). */
  isSmartContractAddress: z.boolean('isSmartContractAddress must be true or false').optional(),
  /** Console extra: the sub-organization that owns it (a restricted member's own by default). */
  subOrgId: z.string().trim().min(1).optional(),
});

export const ContactCreateRequest = ContactCreateFields.superRefine((body, ctx) => {
  const problem = contactAddressProblem(body.blockChain, body.address);
  if (problem) ctx.addIssue({ code: 'custom', path: ['address'], message: problem });
}).transform((body) => ({
  ...body,
  address: canonicalContactAddress(body.blockChain, body.address),
}));
export type ContactCreateRequest = z.output<typeof ContactCreateRequest>;

/** PUT /contacts/{id}/: the assets it may receive (the SDKs' `updateContact`). */
export const ContactUpdateRequest = z.strictObject({
  assetList: assetList,
});
export type ContactUpdateRequest = z.output<typeof ContactUpdateRequest>;
