import { dayOfIn, startOfDayIn } from '../../lib/dates.ts';

/**
 * A statement's period as a member chooses it, in their own zone: a month
 * (`YYYY-MM`, the current one by default) or two days, both included; sent
 * to the server as the two instants that bound it, the end excluded.
 */

const DAY_MS = 86_400_000;

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

function nextMonth(month: string): string {
  const [y = '1970', m = '01'] = month.split('-');
  // eslint-disable-next-line no-restricted-syntax -- calendar parts of a month, not amounts
  const year = Number(y);
  // eslint-disable-next-line no-restricted-syntax -- calendar parts of a month, not amounts
  const index = Number(m);
  return index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, '0')}`;
}

function previousMonth(month: string): string {
  const [y = '1970', m = '01'] = month.split('-');
  // eslint-disable-next-line no-restricted-syntax -- calendar parts of a month, not amounts
  const year = Number(y);
  // eslint-disable-next-line no-restricted-syntax -- calendar parts of a month, not amounts
  const index = Number(m);
  return index === 1 ? `${year - 1}-12` : `${year}-${String(index - 1).padStart(2, '0')}`;
}

/** The month (`YYYY-MM`) an instant falls in, in `timeZone`. */
export const monthOfIn = (at: Date, timeZone: string): string =>
  dayOfIn(at.toISOString(), timeZone).slice(0, 7);

/** The `count` months up to `month`, newest first. */
export function recentMonths(month: string, count: number): string[] {
  const months = [month];
  while (months.length < count) months.push(previousMonth(months.at(-1) ?? month));
  return months;
}

/** `October 2026`. */
export function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00.000Z`));
}

export interface ChosenPeriod {
  month?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The instants bounding the chosen period in `timeZone`: `from` included, `to` excluded. */
export function periodInstants(
  chosen: ChosenPeriod,
  timeZone: string,
  now: Date,
): { from: string; to: string; label: string } {
  if (chosen.from && chosen.to)
    return {
      from: startOfDayIn(chosen.from, timeZone),
      to: startOfDayIn(nextDay(chosen.to), timeZone),
      label: `${chosen.from} to ${chosen.to}`,
    };
  const month = chosen.month ?? monthOfIn(now, timeZone);
  return {
    from: startOfDayIn(`${month}-01`, timeZone),
    to: startOfDayIn(`${nextMonth(month)}-01`, timeZone),
    label: monthLabel(month),
  };
}
