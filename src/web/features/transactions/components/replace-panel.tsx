import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { DateTime } from '../../../components/date-time.tsx';
import { Initiator } from './people.tsx';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import { Button } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { neverReplaceable, replaceBlocker } from '../replaceable.ts';
import { OnDemandDialog, onDemand } from '../../../components/on-demand.tsx';
import { Panel } from '../../../components/panel.tsx';

/**
 * Replace a transaction stuck on the chain with one paying a higher fee.
 * Never offered for a ramp, an FX or an incoming transaction; otherwise
 * offered only when it can succeed (SUBMITTED, a chain with replacement, no
 * replacement in flight), and the page says which of those is missing.
 * Both transactions link to each other once a replacement exists.
 */
// The dialog brings the write endpoints' contract and big.js; loaded when asked for.
const replaceDialog = onDemand(() => import('./replace-dialog.tsx'));

export function ReplacePanel({ transaction: tx }: { transaction: Transaction }) {
  const mayCreate = useCan('create-transaction');
  const [open, setOpen] = useState(false);
  const links = <ReplacementLinks transaction={tx} />;
  // Incoming transactions, ramps and finished ones have nothing to replace: no offer, only the
  // links (the server refuses a replacement of the first two whatever the page shows).
  if (neverReplaceable(tx) || (isTerminalStatus(tx.status) && !tx.replacements?.length)) {
    return tx.replacesTransactionId ? <Section>{links}</Section> : null;
  }
  const blocker = replaceBlocker(tx);
  return (
    <Section>
      {links}
      {blocker ? (
        <p className="text-sm text-slate-800" data-testid="replace-blocked">
          Replace with a higher fee is not available: {blocker}
        </p>
      ) : !mayCreate ? (
        <p className="text-sm text-slate-800" data-testid="replace-blocked">
          Replacing a transaction needs the initiator or admin role.
        </p>
      ) : null}
      {/* Stays mounted while open, so its answer is still shown once the replacement exists. */}
      {mayCreate && (!blocker || open) ? (
        <OnDemandDialog
          part={replaceDialog}
          open={open}
          onOpenChange={setOpen}
          trigger={<Button variant="primary">Replace with a higher fee…</Button>}
          what="the replacement"
        >
          {(m, returnFocus) => (
            <m.ReplaceDialog
              transaction={tx}
              open={open}
              onOpenChange={setOpen}
              onCloseAutoFocus={returnFocus}
            />
          )}
        </OnDemandDialog>
      ) : null}
    </Section>
  );
}

function Section({ children }: { children: ReactNode }) {
  return (
    // The slow notice links here (slow-flag.tsx).
    <Panel title="Replacement" id="replacement">
      <div className="mt-2 space-y-2">{children}</div>
    </Panel>
  );
}

export function TransactionLink({ id }: { id: string }) {
  return (
    <Link
      to="/transactions/$transactionId"
      params={{ transactionId: id }}
      className="font-mono text-sm font-medium break-all text-blue-800 underline hover:text-blue-900"
    >
      {id}
    </Link>
  );
}

function ReplacementLinks({ transaction: tx }: { transaction: Transaction }) {
  return (
    <>
      {tx.replacesTransactionId ? (
        <p className="text-sm">
          This transaction replaces <TransactionLink id={tx.replacesTransactionId} />.
        </p>
      ) : null}
      {tx.replacements?.length ? (
        <ul className="space-y-1 text-sm" aria-label="Replacements of this transaction">
          {tx.replacements.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2">
              Replaced by <TransactionLink id={r.id} /> <StatusBadge status={r.status} />
              <span className="text-slate-700">
                {r.createdAt ? (
                  <>
                    {' '}
                    on <DateTime iso={r.createdAt} />
                  </>
                ) : null}{' '}
                by <Initiator transaction={{ id: r.id, status: r.status }} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
