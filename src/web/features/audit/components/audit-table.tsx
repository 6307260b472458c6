import { Link } from '@tanstack/react-router';
import { auditActionLabel } from '#contract/audit-actions.ts';
import type { AuditEntry } from '#contract/auth.ts';
import type { DataTableSpec } from '../../../components/data-table.tsx';
import { Badge, type BadgeTone } from '../../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { humanize } from '../../../lib/labels.ts';

export const AUDIT_TABLE: DataTableSpec<AuditEntry> = {
  label: 'Audit log',
  caption: 'Every mutation and every reveal of a full number, newest first',
  columns: ['Time', 'Actor', 'Action', 'Entity', 'Summary', 'Outcome', 'Request ID'],
};

const OUTCOME_TONES: Record<AuditEntry['outcome'], BadgeTone> = {
  success: 'success',
  denied: 'warning',
  failed: 'danger',
};

const dash = <span className="text-slate-700">—</span>;

function Actor({ entry }: { entry: AuditEntry }) {
  const name = entry.actorName ?? entry.actorId;
  return (
    <>
      <span className="font-medium">{name ?? humanize(entry.actorType)}</span>
      {name ? (
        <span className="block text-xs text-slate-700">{humanize(entry.actorType)}</span>
      ) : null}
    </>
  );
}

const entityIdClass = 'block font-mono text-xs break-all';

/** The entity's id, a link to its page where it has one (transactions and bank accounts). */
function EntityId({ entry, id }: { entry: AuditEntry; id: string }) {
  const link = 'text-blue-800 underline hover:text-blue-900';
  if (entry.entityType === 'TRANSACTION')
    return (
      <Link
        to="/transactions/$transactionId"
        params={{ transactionId: id }}
        className={`${entityIdClass} ${link}`}
      >
        {id}
        <span className="sr-only">, open the transaction</span>
      </Link>
    );
  if (entry.entityType === 'BANK_ACCOUNT')
    return (
      <Link
        to="/bank-accounts/$bankAccountId"
        params={{ bankAccountId: id }}
        className={`${entityIdClass} ${link}`}
      >
        {id}
        <span className="sr-only">, open the bank account</span>
      </Link>
    );
  return <span className={`${entityIdClass} text-slate-700`}>{id}</span>;
}

export function AuditRow({ entry }: { entry: AuditEntry }) {
  return (
    <TableRow data-audit-id={entry.id}>
      <TableCell className="whitespace-nowrap">
        <DateTime iso={entry.at} />
      </TableCell>
      <TableCell>
        <Actor entry={entry} />
      </TableCell>
      <TableCell>
        <span className="block whitespace-nowrap">{auditActionLabel(entry.action)}</span>
        <span className="block font-mono text-xs text-slate-700">{entry.action}</span>
      </TableCell>
      <TableCell>
        {entry.entityType || entry.entityId ? (
          <>
            {entry.entityType ? <span>{humanize(entry.entityType)}</span> : null}
            {entry.entityId ? <EntityId entry={entry} id={entry.entityId} /> : null}
          </>
        ) : (
          dash
        )}
      </TableCell>
      <TableCell className="min-w-64">{entry.summary || dash}</TableCell>
      <TableCell>
        <Badge tone={OUTCOME_TONES[entry.outcome]} data-outcome={entry.outcome}>
          {humanize(entry.outcome)}
        </Badge>
      </TableCell>
      <TableCell className="font-mono text-xs break-all">{entry.requestId ?? dash}</TableCell>
    </TableRow>
  );
}
