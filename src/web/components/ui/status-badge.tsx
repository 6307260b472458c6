import { humanize } from '../../lib/labels.ts';
import { Badge, type BadgeTone } from './badge.tsx';

/**
 * Status colours shared by every resource. The text always names the status,
 * so colour is never the only signal.
 */
const STATUS_TONES: Record<string, BadgeTone> = {
  COMPLETED: 'success',
  APPROVED: 'success',
  FAILED: 'danger',
  DECLINED: 'danger',
  CANCELLED: 'danger',
  REVERSED: 'danger',
  PENDING: 'warning',
  DRAFT: 'neutral',
  SKIPPED: 'neutral',
  SIGNED: 'info',
  SUBMITTED: 'info',
  WAITING_CONFIRMATION: 'info',
  PROCESSING: 'info',
};

export function statusTone(status: string | undefined): BadgeTone {
  return (status && STATUS_TONES[status]) || 'neutral';
}

/**
 * `APPROVED` is a finished state for a bank account but an in-flight one for
 * a transaction; `tone` lets the caller say which.
 */
export function StatusBadge({ status, tone }: { status: string | undefined; tone?: BadgeTone }) {
  if (!status) return <span className="text-slate-700">—</span>;
  return (
    <Badge tone={tone ?? statusTone(status)} data-status={status}>
      {humanize(status)}
    </Badge>
  );
}
