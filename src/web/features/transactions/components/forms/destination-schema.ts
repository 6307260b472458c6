import { z } from 'zod';
import type { TransferPartyData } from '#contract/transaction.ts';
import { sameAddress } from '#contract/addresses.ts';
import { checkAddress, sendFieldFor, type FormContext, type IssueOn } from './form-rules.ts';

/**
 * Where a transfer or a delegation goes, as both forms pick it: an approved
 * contact, another vault, or an external address, each in its own field.
 */
export const DESTINATION_KINDS = ['CONTACT', 'VAULT', 'EXTERNAL_ADDRESS'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const destinationShape = {
  destinationKind: z.enum(DESTINATION_KINDS),
  destinationContactId: z.string(),
  destinationVaultId: z.string(),
  destinationAddress: z.string(),
};
type DestinationValues = z.infer<z.ZodObject<typeof destinationShape>>;

export function destinationDefaults(): DestinationValues {
  return {
    destinationKind: 'CONTACT',
    destinationContactId: '',
    destinationVaultId: '',
    destinationAddress: '',
  };
}

/** Which form field holds the destination of each kind. */
export function destinationField(kind: DestinationKind): keyof DestinationValues {
  if (kind === 'VAULT') return 'destinationVaultId';
  if (kind === 'EXTERNAL_ADDRESS') return 'destinationAddress';
  return 'destinationContactId';
}

/**
 * The field finder of a form that sends somewhere: the form field a request
 * path (or a server `fields` entry) is about. The destination's field of the
 * kind chosen, the form's `own` fields, then the fields every send shares.
 */
export function destinationFieldFor<F extends string>(own: Readonly<Record<string, F>>) {
  return (path: string, v: { destinationKind: DestinationKind }) =>
    sendFieldFor(path, { destination: destinationField(v.destinationKind), ...own });
}

export function destinationParty(v: DestinationValues): TransferPartyData {
  const field = destinationField(v.destinationKind);
  return { type: v.destinationKind, id: v[field].trim() };
}

/**
 * The destination's rules: chosen, not the source vault (by id, or by its own
 * address typed as an external one), an address in the chain's format whose
 * checksum holds.
 */
export function destinationIssues(
  v: DestinationValues & { sourceVaultId: string; blockChain: string },
  issue: IssueOn<keyof DestinationValues>,
  /** What the member does: "send" or "delegate". */
  verb: string,
  ctx: FormContext = {},
): void {
  if (v.destinationKind === 'CONTACT' && !v.destinationContactId)
    issue('destinationContactId', 'choose an approved contact');
  if (v.destinationKind === 'VAULT') {
    if (!v.destinationVaultId) issue('destinationVaultId', `choose the vault to ${verb} to`);
    else if (v.destinationVaultId === v.sourceVaultId)
      issue('destinationVaultId', 'choose a vault other than the source');
  }
  if (v.destinationKind === 'EXTERNAL_ADDRESS' && v.blockChain) {
    const problem = checkAddress(v.blockChain, v.destinationAddress);
    if (problem) issue('destinationAddress', problem);
    else if (ctx.sourceAddress && sameAddress(ctx.sourceAddress, v.destinationAddress.trim()))
      issue(
        'destinationAddress',
        `this is the source vault's own address: a vault cannot ${verb} to itself`,
      );
  }
}
