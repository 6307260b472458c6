import { useEffect, useId, useRef, useState } from 'react';
import { STAFF_ROLES, type StaffMember, type StaffRole } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { useUpdateStaffMember } from '../api/staff-queries.ts';

type Pending = { kind: 'role'; role: StaffRole } | { kind: 'disable' } | { kind: 'enable' };

function question(member: StaffMember, pending: Pending): string {
  switch (pending.kind) {
    case 'role':
      return `Change ${member.name}'s role from ${humanize(member.role)} to ${humanize(pending.role)}?`;
    case 'disable':
      return `Disable ${member.name}? They are signed out everywhere and cannot sign in again until enabled.`;
    case 'enable':
      return `Enable ${member.name}? They can sign in again.`;
  }
}

/**
 * Role change and disable/enable, each behind an inline confirmation that
 * takes focus, so neither happens on a stray click.
 */
export function StaffRowActions({ member, isSelf }: { member: StaffMember; isSelf: boolean }) {
  const id = useId();
  const [role, setRole] = useState<StaffRole>(member.role);
  const [pending, setPending] = useState<Pending | null>(null);
  const update = useUpdateStaffMember();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const roleSelectRef = useRef<HTMLSelectElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  // Which control opened the confirmation: focus goes back to it when it closes.
  const openedBy = useRef<'role' | 'toggle' | null>(null);

  useEffect(() => {
    if (pending) {
      confirmRef.current?.focus();
    } else if (openedBy.current) {
      // The role select, not Change role: that button is disabled again once the role is saved.
      (openedBy.current === 'role' ? roleSelectRef.current : toggleRef.current)?.focus();
      openedBy.current = null;
    }
  }, [pending]);

  const open = (next: Pending) => {
    openedBy.current = next.kind === 'role' ? 'role' : 'toggle';
    setPending(next);
  };

  const confirm = () => {
    if (!pending) return;
    const body =
      pending.kind === 'role' ? { role: pending.role } : { disabled: pending.kind === 'disable' };
    update.mutate({ id: member.id, body }, { onSettled: () => setPending(null) });
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
            disabled={update.isPending}
          >
            {update.isPending ? 'Saving…' : 'Confirm'}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setPending(null)}
            disabled={update.isPending}
          >
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
      </div>
      {update.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {describeError(update.error)}
        </p>
      ) : null}
    </div>
  );
}
