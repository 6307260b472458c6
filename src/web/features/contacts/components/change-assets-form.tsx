import { useId, useState } from 'react';
import type { Contact } from '#contract/reference.ts';
import { FormActions, FormCard, FormError, SubmitButton } from '../../../components/form-card.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useChangeContactAssets } from '../api/change-contact-assets.ts';
import { AssetChoices } from './asset-choices.tsx';

/**
 * Proposing a new asset list for an approved contact. It goes through
 * approval like the contact did; until then the contact keeps receiving only
 * what was approved.
 */
export function ChangeAssetsForm({ contact }: { contact: Contact & { id: string } }) {
  const id = useId();
  const change = useChangeContactAssets(contact.id);
  const [assets, setAssets] = useState<string[]>(contact.assetList ?? []);
  return (
    <FormCard
      title="Change the assets it may receive"
      onSubmit={(event) => {
        event.preventDefault();
        if (!change.isPending) change.mutate(assets);
      }}
    >
      <AssetChoices
        id={id}
        blockChain={contact.blockChain ?? ''}
        value={assets}
        onChange={setAssets}
        legend="Assets"
        describedBy={`${id}-hint`}
      />
      <p id={`${id}-hint`} className="text-sm text-slate-700">
        None ticked: any asset of its chain. Another member must approve the change; until then the
        contact receives only what is approved now.
      </p>
      {change.isError ? (
        <FormError>The change was not proposed: {describeError(change.error)}</FormError>
      ) : null}
      <FormActions>
        <SubmitButton pending={change.isPending} pendingLabel="Proposing…">
          Propose asset change
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}
