import * as z from 'zod/mini';
import { COLOR_SCHEMES, FALLBACK_TIME_ZONE, MAX_ZONE_LENGTH } from './display.ts';

/**
 * Setting a member's display (contract/display.ts): the time zone they
 * choose, checked against this runtime's Intl, and the colour scheme. Apart
 * from display.ts so that pages which only show times do not load it.
 */

// IANA names: Area/Location(/More), or a bare name like UTC; never an offset such as +05:30.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone as this runtime's Intl knows it, or undefined when it knows no
 * such zone. Intl matches names without regard to case; the answer takes the
 * spelling of the runtime's own list when it holds the name (`utc` → `UTC`).
 */
export function knownTimeZone(name: string): string | undefined {
  if (name.length > MAX_ZONE_LENGTH || !ZONE_NAME.test(name)) return undefined;
  const known = knownZones.get(name);
  if (known) return known;
  const answer = resolveZone(name);
  // Kept for the names a runtime knows (a few hundred, in a few spellings), so
  // the check costs no formatter per request; a bounded cache, whatever is sent.
  if (answer && knownZones.size < MAX_KNOWN_ZONES) knownZones.set(name, answer);
  return answer;
}

const MAX_KNOWN_ZONES = 2_000;
const knownZones = new Map<string, string>();

function resolveZone(name: string): string | undefined {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
  const lower = name.toLowerCase();
  if (resolved.toLowerCase() === lower) return resolved;
  return listedTimeZones().find((zone) => zone.toLowerCase() === lower) ?? name;
}

let listed: readonly string[] | undefined;
/** Every zone this runtime lists, UTC first: the account page's choices. */
export function listedTimeZones(): readonly string[] {
  listed ??= [FALLBACK_TIME_ZONE, ...Intl.supportedValuesOf('timeZone')];
  return listed;
}

const ZONE_RULE = 'must be an IANA time zone name, such as Europe/Berlin or America/Los_Angeles';

/** A time zone a member chooses: a name this runtime knows, in its own spelling. */
const TimeZoneName = z.pipe(
  z.string({ error: `timeZone ${ZONE_RULE}` }).check(
    z.trim(),
    z.minLength(1, `timeZone ${ZONE_RULE}`),
    z.refine((value) => knownTimeZone(value) !== undefined, `timeZone ${ZONE_RULE}`),
  ),
  z.transform((value) => knownTimeZone(value) ?? value),
);

/** PATCH /api/console/account/display/: either or both; `timeZone: null` goes back to the browser's. */
export const DisplaySettingsRequest = z.strictObject({
  timeZone: z.optional(z.nullable(TimeZoneName)),
  colorScheme: z.optional(
    z.enum(COLOR_SCHEMES, { error: 'colorScheme must be one of system, light or dark' }),
  ),
});
export type DisplaySettingsRequest = z.input<typeof DisplaySettingsRequest>;
