import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { checked, keepInScope, scopeListQuery } from '../../console/scope-rules.ts';
import type { ContactsPort } from './port.ts';

/**
 * The address book held to a member's sub-organizations, as the rest of the
 * console is (console/scope-rules.ts): contacts listed in the scope only, a
 * contact outside it is 404, read or changed; a proposal is made in one of
 * them — the one named, the member's only one by default, or a 400 naming
 * `subOrgId` when they have several (an organization-level contact would be
 * outside their own scope yet payable by every sub-organization). API
 * clients carry no scope.
 */

export function contactsScope(inner: CustodyBackend): ContactsPort {
  return {
    listContacts: async (ctx, q) =>
      keepInScope(ctx, await inner.listContacts(ctx, scopeListQuery(ctx, q))),
    getContact: async (ctx, id) => checked(ctx, 'contact', id, await inner.getContact(ctx, id)),
    createContact: async (ctx, body) => {
      const ids = ctx.scope?.subOrgIds;
      if (!ids) return inner.createContact(ctx, body);
      if (body.subOrgId) {
        if (!ids.includes(body.subOrgId)) {
          throw new ApiError(
            404,
            ERROR_CODES.notFound,
            `No sub-organization with id "${body.subOrgId}"`,
          );
        }
        return inner.createContact(ctx, body);
      }
      if (ids.length === 1) return inner.createContact(ctx, { ...body, subOrgId: ids[0] });
      const message =
        'subOrgId is required: you act in several sub-organizations, so name the one the contact belongs to';
      throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'subOrgId', message }]);
    },
    updateContact: async (ctx, id, body) => {
      if (ctx.scope?.subOrgIds) checked(ctx, 'contact', id, await inner.getContact(ctx, id));
      return inner.updateContact(ctx, id, body);
    },
  };
}
