import { STAFF_ROLES, type StaffRole } from './auth.ts';
import type { SsoGroupRole, SsoSettings, UpdateSsoSettings } from './sso.ts';

/**
 * Whether a single sign-on save lets more people in, or lets them do more,
 * than the settings in force: such a save waits for another admin of every
 * sub-organization, as adding an approver or admin on the Staff page does.
 * Answers why, one sentence a reason; none when the save only narrows or
 * renames, which applies at once. Turning single sign-on off, and passwords
 * back on for everyone, apply at once on purpose: they are what an admin does
 * when the provider is down or compromised, and a lone break-glass admin could
 * not get a second approval then.
 */

type InForce = Pick<
  SsoSettings,
  | 'configured'
  | 'enabled'
  | 'issuer'
  | 'clientId'
  | 'groupsClaim'
  | 'passwordSignIn'
  | 'breakGlassEmail'
  | 'groups'
>;

const rank = (role: StaffRole) => STAFF_ROLES.indexOf(role);

function widerScope(before: SsoGroupRole['subOrgIds'], after: SsoGroupRole['subOrgIds']): boolean {
  if (before === null) return false;
  if (after === null) return true;
  return after.some((id) => !before.includes(id));
}

export function ssoWidens(before: InForce, after: UpdateSsoSettings): string[] {
  const reasons: string[] = [];
  const wasOn = before.configured && before.enabled;
  if (after.enabled && !wasOn) reasons.push('It turns single sign-on on.');
  if (after.enabled && wasOn) {
    if (after.issuer !== before.issuer || after.clientId !== before.clientId)
      reasons.push('It signs members in through another provider or client.');
    if (after.groupsClaim !== before.groupsClaim)
      reasons.push(`It reads members' groups from another claim (${after.groupsClaim}).`);
  }
  if (
    after.enabled &&
    after.passwordSignIn === 'break_glass' &&
    wasOn &&
    before.passwordSignIn === 'break_glass' &&
    after.breakGlassEmail !== before.breakGlassEmail
  )
    reasons.push(
      `It lets ${after.breakGlassEmail ?? 'another admin'} sign in with a password instead.`,
    );
  for (const group of after.groups) {
    const was = before.groups.find((g) => g.groupName === group.groupName);
    if (!was) reasons.push(`It maps the group ${group.groupName} to ${group.role}.`);
    else if (rank(group.role) > rank(was.role))
      reasons.push(`It raises the group ${group.groupName} from ${was.role} to ${group.role}.`);
    else if (widerScope(was.subOrgIds, group.subOrgIds))
      reasons.push(`It widens the sub-organizations of the group ${group.groupName}.`);
  }
  return reasons;
}
