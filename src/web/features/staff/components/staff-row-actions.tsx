import { useEffect, useId, useRef, useState } from 'react';
import { STAFF_ROLES, type StaffMember, type StaffRole } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { useProposeFactorReset, useUpdateStaffMember } from '../api/staff-queries.ts';

type Pending =
  { kind: 'role'; role: StaffRole } | { kind: 'disable' } | { kind: 'enable' } | { kind: 'reset' };

const PRIVILEGED: readonly StaffRole[] = ['approver', 'admin'];

function question(member: StaffMember, pending: Pending): string {
  switch (pending.kind) {
    case 'role':
      return `Change ${member.name}'s role from ${humanize(member.role)} to ${humanize(pending.role)}? They are signed out and sign in again under the new role.${
        PRIVILEGED.includes(pending.role) && !PRIVILEGED.includes(member.role)
          ? ' Another admin must approve it first.'
          : ''
      }`;
    case 'reset':
      return `Reset ${member.name}'s second factor? Another admin must approve it; then their authenticator app, recovery codes and passkeys are cleared, they are signed out, and they set up a new one at their next sign-in.`;
    case 'disable':
      return `Disable ${member.name}? They are signed out everywhere and cannot sign in again until enabled.`;
    case 'enable':
      return `Enable ${member.name}? They can sign in again.`;
  }
}

/**
 * Role change, second-factor reset and disable/enable, each behind an inline
 * confirmation that takes focus, so none happens on a stray click. What
 * grants approve or admin rights, and a reset, are proposals another admin
 * decides (the page's list of staff changes awaiting approval).
 */
export function StaffRowActions({ member, isSelf }: { member: StaffMember; isSelf: boolean }) {
  const id = useId();
  const [role, setRole] = useState<StaffRole>(member.role);
  const [pending, setPending] = useState<Pending | null>(null);
  const update = useUpdateStaffMember();
  const reset = useProposeFactorReset();
  const [notice, setNotice] = useState<string | null>(null);
  const sending = update.isPending || reset.isPending;
  const failed = update.isError ? update.error : reset.isError ? reset.error : null;
  const confirmRef = useRef<HTMLButtonElement>(null);
  const roleSelectRef = useRef<HTMLSelectElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Which control opened the confirmation: focus goes back to it when it closes.
  const openedBy = useRef<'role' | 'toggle' | 'reset' | null>(null);
  const resetRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (pending) {
      confirmRef.current?.focus();
    } else if (openedBy.current) {
      // The role select, not Change role: that button is disabled again once the role is saved.
      const back = { role: roleSelectRef, toggle: toggleRef, reset: resetRef }[openedBy.current];
      back.current?.focus();
      openedBy.current = null;
    }
  }, [pending]);

  const open = (next: Pending) => {
    openedBy.current = next.kind === 'role' || next.kind === 'reset' ? next.kind : 'toggle';
    setNotice(null);
    setPending(next);
  };

  const confirm = () => {
    if (!pending) return;
    const done = {
      onSuccess: (answer: { outcome: 'applied' | 'proposed' }) =>
        setNotice(
          answer.outcome === 'proposed'
            ? 'Proposed: it applies once another admin approves it.'
            : 'Saved.',
        ),
      onSettled: () => setPending(null),
    };
    if (pending.kind === 'reset') {
      update.reset();
      reset.mutate(member.id, done);
      return;
    }
    reset.reset();
    const body =
      pending.kind === 'role' ? { role: pending.role } : { disabled: pending.kind === 'disable' };
    update.mutate({ id: member.id, body }, done);
  };

  // The server refuses it too: an admin who demoted or disabled themselves could lock everyone out.
  if (isSelf) return <p className="text-sm text-slate-700">Your own account</p>;

  if (pending) {
    return (
      <div role="group" aria-labelledby={`${id}-question`} className="flex flex-col gap-2">
        <p id={`${id}-question`} className="text-sm text-slate-900">
          {question(member, pending)}
        </p>
        <div className="flex gap-2">
          <Button
            ref={confirmRef}
            size="sm"
            variant={pending.kind === 'disable' ? 'destructive' : 'primary'}
            onClick={confirm}
            disabled={sending}
          >
            {sending ? 'Saving…' : 'Confirm'}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setPending(null)} disabled={sending}>
            Cancel
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-role`} className="sr-only">
          {`Role for ${member.name}`}
        </label>
        <Select
          ref={roleSelectRef}
          id={`${id}-role`}
          value={role}
          onChange={(e) => setRole(e.target.value as StaffRole)}
          placement="row"
          className="w-36"
        >
          {STAFF_ROLES.map((r) => (
            <option key={r} value={r}>
              {humanize(r)}
            </option>
          ))}
        </Select>
        <Button
          size="sm"
          onClick={() => open({ kind: 'role', role })}
          disabled={role === member.role}
          aria-label={`Change role of ${member.name}`}
        >
          Change role
        </Button>
        <Button
          ref={toggleRef}
          size="sm"
          variant={member.disabled ? 'secondary' : 'ghost'}
          onClick={() => open({ kind: member.disabled ? 'enable' : 'disable' })}
          aria-label={`${member.disabled ? 'Enable' : 'Disable'} ${member.name}`}
        >
          {member.disabled ? 'Enable' : 'Disable'}
        </Button>
        <Button
          ref={resetRef}
          size="sm"
          variant="ghost"
          onClick={() => open({ kind: 'reset' })}
          aria-label={`Reset second factor of ${member.name}`}
        >
          Reset second factor
        </Button>
      </div>
      {failed ? (
        <p role="alert" className="text-sm text-red-800">
          {describeError(failed)}
        </p>
      ) : notice ? (
        <p role="status" className="text-sm text-slate-800">
          {notice}
        </p>
      ) : null}
    </div>
  );
}
