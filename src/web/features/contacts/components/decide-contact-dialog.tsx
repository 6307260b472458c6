import type { ApprovalAction, ApprovalActionResponse } from '#contract/approvals.ts';
import { chainLabel } from '#contract/chains.ts';
import type { Contact } from '#contract/reference.ts';
import { DecideDialog } from '../../../components/decide-dialog.tsx';
import { Fact } from '../../../components/fact.tsx';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useDecideContact } from '../api/decide-contact.ts';
import { assetsText } from './assets-text.ts';

/**
 * The confirmation before a decision: the contact's chain and whole address
 * (what a second pair of eyes checks against the counterparty's own
 * instructions), the assets it would receive, and, to decline, the reason
 * the proposer will read. Mount it to open it.
 */
export function DecideContactDialog({
  contact,
  action,
  onOpenChange,
  onDecided,
  onCloseAutoFocus,
}: {
  contact: Contact & { id: string };
  action: ApprovalAction;
  onOpenChange: (open: boolean) => void;
  onDecided: (answer: ApprovalActionResponse) => void;
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const decide = useDecideContact();
  const decideOnce = useSendOnce(decide);
  const approve = action === 'approve';
  const change = contact.pendingAssetList;
  const name = contact.name || 'this contact';

  return (
    <DecideDialog
      entityId={contact.id}
      action={action}
      what={change ? `the asset change of ${name}` : name}
      description={
        approve
          ? 'Check the chain and every character of the address against the counterparty’s own instructions. Once approved, transfers can be sent to it.'
          : change
            ? 'The contact keeps the assets approved before. The proposer sees your reason on its page.'
            : 'The contact will never be paid. The proposer sees your reason on its page.'
      }
      reasonMissing="Give a reason to decline: the proposer reads it on the contact’s page."
      labels={{ approve: 'Approve', reject: 'Decline' }}
      sending={decide.isPending}
      error={decide.isError ? decide.error : null}
      onConfirm={(reason, card) =>
        decideOnce(
          { contactId: contact.id, action, reason, digest: card.digest },
          { onSuccess: onDecided, onError: card.refused },
        )
      }
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <Fact term="Name">{contact.name}</Fact>
        <Fact term="Chain">{chainLabel(contact.blockChain)}</Fact>
        <Fact term="Address">
          <span className="font-mono break-all">{contact.address}</span>
        </Fact>
        {change ? (
          <>
            <Fact term="Assets now">{assetsText(contact.assetList)}</Fact>
            <Fact term="Assets proposed">{assetsText(change)}</Fact>
          </>
        ) : (
          <Fact term="Assets">{assetsText(contact.assetList)}</Fact>
        )}
        <Fact term="Smart contract">{contact.isSmartContractAddress ? 'Yes' : 'No'}</Fact>
      </dl>
    </DecideDialog>
  );
}
