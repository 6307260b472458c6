import { useId, useState } from 'react';
import type { ApprovalAction } from '#contract/approvals.ts';
import { chainLabel } from '#contract/chains.ts';
import type { Contact } from '#contract/reference.ts';
import { Fact } from '../../../components/fact.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
} from '../../../components/ui/dialog.tsx';
import { DecisionRefused, DeclineReasonField } from '../../../components/decline-reason-field.tsx';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useDecideContact } from '../api/decide-contact.ts';

const assets = (list: readonly string[] | null | undefined) =>
  list && list.length > 0 ? list.join(', ') : 'Any asset of its chain';

/**
 * The confirmation before a decision: the contact's chain and whole address
 * (what a second pair of eyes checks against the counterparty's own
 * instructions), the assets it would receive, and, to decline, the reason
 * the proposer will read. Mount it to open it.
 */
export function DecideContactDialog({
  contact,
  action,
  onClose,
  onDecided,
}: {
  contact: Contact & { id: string };
  action: ApprovalAction;
  onClose: () => void;
  onDecided: (status: string) => void;
}) {
  const id = useId();
  const decide = useDecideContact();
  const decideOnce = useSendOnce(decide);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const approve = action === 'approve';
  const change = contact.pendingAssetList;
  const name = contact.name || 'this contact';
  const what = change ? `the asset change of ${name}` : name;

  const confirm = () => {
    const trimmed = reason.trim();
    if (!approve && !trimmed) {
      setReasonError('Give a reason to decline: the proposer reads it on the contact’s page.');
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    decideOnce(
      { contactId: contact.id, action, reason: approve ? undefined : trimmed },
      { onSuccess: (result) => onDecided(result.status ?? (approve ? 'APPROVED' : 'REJECTED')) },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !decide.isPending && onClose()}>
      <DialogContent
        title={approve ? `Approve ${what}?` : `Decline ${what}?`}
        description={
          approve
            ? 'Check the chain and every character of the address against the counterparty’s own instructions. Once approved, transfers can be sent to it.'
            : change
              ? 'The contact keeps the assets approved before. The proposer sees your reason on its page.'
              : 'The contact will never be paid. The proposer sees your reason on its page.'
        }
      >
        <div className="flex flex-col gap-4">
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <Fact term="Name">{contact.name}</Fact>
            <Fact term="Chain">{chainLabel(contact.blockChain)}</Fact>
            <Fact term="Address">
              <span className="font-mono break-all">{contact.address}</span>
            </Fact>
            {change ? (
              <>
                <Fact term="Assets now">{assets(contact.assetList)}</Fact>
                <Fact term="Assets proposed">{assets(change)}</Fact>
              </>
            ) : (
              <Fact term="Assets">{assets(contact.assetList)}</Fact>
            )}
            <Fact term="Smart contract">{contact.isSmartContractAddress ? 'Yes' : 'No'}</Fact>
          </dl>
          {!approve ? (
            <DeclineReasonField
              id={`${id}-reason`}
              value={reason}
              error={reasonError}
              onChange={(value) => {
                setReason(value);
                if (value.trim()) setReasonError(null);
              }}
            />
          ) : null}
          <DecisionRefused approve={approve} error={decide.isError ? decide.error : null} />
        </div>
        <DialogActions>
          <DialogClose asChild>
            <Button variant="ghost" disabled={decide.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant={approve ? 'primary' : 'destructive'}
            onClick={confirm}
            disabled={decide.isPending}
          >
            {decide.isPending
              ? approve
                ? 'Approving…'
                : 'Declining…'
              : approve
                ? 'Approve'
                : 'Decline'}
          </Button>
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}
