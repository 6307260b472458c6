import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { listLedgerPeriods, proposeLedgerClose } from '#contract/endpoints/ledger-periods.ts';
import { unauthorized, type AuthOptions } from '../../../auth/session-auth.ts';
import { sessionTimeZone } from '../../../auth/session.store.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { custodyContext } from '../../../custody/context.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { proposeClose } from './kind.ts';
import { monthBounds, monthName, monthOf, previousMonth } from './month.ts';
import { closingPlan, listPeriods, monthAfter, periodName, periodOnWire } from './store.ts';
import { wholeOrganizationBooks } from './whole-organization.ts';

/**
 * GET and POST /api/console/ledger/periods/: the organization's periods, and
 * an admin's proposal to close a month (decided on its held item by another
 * admin). Both cover the whole organization, so a member held to some
 * sub-organizations is refused them; upstream there is no ledger to close.
 */
export function ledgerPeriodRoutes(options: AuthOptions, backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;

  const { guard, wholeOrganization } = wholeOrganizationBooks(backend, {
    outsideScope:
      'A ledger period covers the whole organization: only a member of every sub-organization sees or closes one',
    upstream:
      'The ledger is kept by the sandbox: the custody service this console acts on gives no balance history to close',
  });

  /** The organization's reporting zone: its periods', else the member's own (the first proposal sets it). */
  async function zoneOf(c: Context<AppEnv>, planned: string | null) {
    if (planned) return planned;
    const member = c.get('staff');
    if (!member) throw unauthorized();
    return sessionTimeZone(db, member, c.get('session')?.id);
  }

  mount(
    app,
    CONSOLE_API_PREFIX,
    listLedgerPeriods,
    async (_input, c) => {
      const { orgId, now } = await wholeOrganization(c);
      const plan = await closingPlan(db, orgId);
      const zone = await zoneOf(c, plan.timeZone);
      const candidate = monthAfter(plan.last) ?? previousMonth(monthOf(now, zone));
      const ended = monthBounds(candidate, zone).to.getTime() <= now.getTime();
      return {
        timeZone: plan.timeZone,
        nextMonth: plan.pending || !ended ? null : candidate,
        results: await listPeriods(db, orgId),
      };
    },
    { guard },
  );

  mount(
    app,
    CONSOLE_API_PREFIX,
    proposeLedgerClose,
    async ({ body }, c) => {
      const { member, orgId, now } = await wholeOrganization(c);
      const plan = await closingPlan(db, orgId);
      const timeZone = await zoneOf(c, plan.timeZone);
      const refuse = (message: string) =>
        new ApiError(409, ERROR_CODES.conflict, `month: ${message}`, [{ field: 'month', message }]);
      if (plan.pending)
        throw refuse(`the close of ${periodName(plan.pending)} waits for its decision`);
      const expected = monthAfter(plan.last);
      if (expected && body.month !== expected)
        throw refuse(
          `months close in order: the next to close is ${monthName(expected)} (${timeZone})`,
        );
      const bounds = monthBounds(body.month, timeZone);
      if (bounds.to.getTime() > now.getTime())
        throw refuse(`${monthName(body.month)} has not ended yet in ${timeZone}`);
      try {
        const row = await proposeClose(
          db,
          clock,
          { orgId, month: body.month, timeZone, ...bounds },
          { id: member.id, name: member.name, role: 'admin', createdBy: member.createdBy },
          custodyContext(c),
        );
        return periodOnWire(row, member.name);
      } catch (error) {
        if (isUniqueViolation(error))
          throw refuse(`${monthName(body.month)} is already proposed for closing or closed`);
        throw error;
      }
    },
    { guard },
  );

  return app;
}
