import type { z } from 'zod';
import { pathOf } from '#contract/endpoint.ts';
import { createContact, updateContact } from '#contract/endpoints/contact-writes.ts';
import { Contact } from '#contract/reference.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { UpstreamRequest } from '../../../custody/upstream/upstream-client.ts';
import type { ContactsPort } from '../port.ts';

/** The upstream composite's one checked call (upstream-backend.ts's `call`). */
type Call = <S extends z.core.$ZodType>(
  ctx: CustodyContext,
  schema: S,
  request: Omit<UpstreamRequest, 'requestId'>,
) => Promise<z.output<S>>;

/**
 * The address book forwarded to the custody API, signed as every call is.
 * Never retried: a lost answer to a create is found again by its externalId
 * (the console's form always sends one), not by sending it twice.
 */
export function contactsUpstream({ call }: { call: Call }): ContactsPort {
  return {
    createContact: (ctx, body) =>
      call(ctx, Contact, { method: 'POST', path: pathOf(createContact), body, retry: false }),
    updateContact: (ctx, contactId, body) =>
      call(ctx, Contact, {
        method: 'PUT',
        path: pathOf(updateContact, { contactId }),
        body,
        retry: false,
      }),
  };
}
