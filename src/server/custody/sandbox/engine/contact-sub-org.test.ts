import { describe, expect } from 'vitest';
import { engineTest } from '../../../test/engine-test.ts';
import { createContact, createSubOrg, createVault } from '../../../test/fixtures.ts';

// A transfer goes only to an APPROVED contact of the source vault's
// sub-organization (or one of the whole organization), whoever asks: through
// the custody API, as any caller reaches the engine.

describe('a contact receives only from vaults of its own sub-organization', () => {
  engineTest(
    'another sub-organization’s contact is refused naming destination.id; its own, or the organization’s, is paid',
    async ({ t, f, requests }) => {
      const east = await createSubOrg(t.db, t.orgId, 'East');
      const west = await createSubOrg(t.db, t.orgId, 'West');
      const eastVault = await createVault(
        t.db,
        { orgId: t.orgId, subOrgId: east.id, vaultName: 'East ops' },
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: '5' }],
      );
      const westContact = await createContact(t.db, {
        orgId: t.orgId,
        subOrgId: west.id,
        name: 'West supplier',
      });
      const eastContact = await createContact(t.db, {
        orgId: t.orgId,
        subOrgId: east.id,
        name: 'East supplier',
      });
      const from = (id: string) => ({ source: requests.vault(id), amount: '0.1' });

      const body = await requests.expectRefused(
        requests.transfer({ ...from(eastVault.id), destination: requests.contact(westContact.id) }),
        'destination.id',
        'CONTACT_OF_ANOTHER_SUB_ORG',
      );
      expect(body.message).toContain('West supplier');
      // An organization-level vault has no sub-organization's address book either.
      await requests.expectRefused(
        requests.transfer({
          ...from(f.treasury.id),
          destination: requests.contact(eastContact.id),
        }),
        'destination.id',
        'CONTACT_OF_ANOTHER_SUB_ORG',
      );

      for (const contactId of [eastContact.id, f.contacts.eth.id]) {
        const ok = await requests.create(
          requests.transfer({ ...from(eastVault.id), destination: requests.contact(contactId) }),
        );
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        expect(ok.body.status).toBe('PENDING');
      }
    },
  );
});
