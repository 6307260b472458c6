import * as z from 'zod/mini';

/**
 * How the console shows times, numbers and colours to one member: one rule,
 * the same on the server's render and in the browser.
 *
 * - Time zone: the member's own choice (an IANA name, set on /account), or
 *   else the zone their browser reported when they signed in, or else UTC.
 *   Every time shown carries its zone's label; date filters are whole days in
 *   that zone.
 * - Locale: the console has one, `CONSOLE_LOCALE`, for amounts and dates
 *   alike, whatever the browser's language: 1,234.56 and Nov 24, 2026.
 * - Colour scheme: the system's (default), or always light, or always dark.
 */

/** The console's one locale for amounts and dates (decimal-format.ts writes amounts the same way). */
export const CONSOLE_LOCALE = 'en-US';

export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
export const ColorScheme = z.enum(COLOR_SCHEMES);
export type ColorScheme = z.infer<typeof ColorScheme>;

/** Where the zone in use came from: the member's setting, their browser at sign-in, or neither (UTC). */
export const TIME_ZONE_SOURCES = ['member', 'browser', 'fallback'] as const;
export type TimeZoneSource = (typeof TIME_ZONE_SOURCES)[number];

/** When neither the member nor their browser named a zone the server knows. */
export const FALLBACK_TIME_ZONE = 'UTC';

const MAX_ZONE_LENGTH = 64;
// IANA names: Area/Location(/More), or a bare name like UTC; never an offset such as +05:30.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone as this runtime's Intl knows it, or undefined when it knows no
 * such zone. Intl matches names without regard to case; the answer takes the
 * spelling of the runtime's own list when it holds the name (`utc` → `UTC`).
 */
export function knownTimeZone(name: string): string | undefined {
  if (name.length > MAX_ZONE_LENGTH || !ZONE_NAME.test(name)) return undefined;
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
export const TimeZoneName = z.pipe(
  z.string({ error: `timeZone ${ZONE_RULE}` }).check(
    z.trim(),
    z.minLength(1, `timeZone ${ZONE_RULE}`),
    z.refine((value) => knownTimeZone(value) !== undefined, `timeZone ${ZONE_RULE}`),
  ),
  z.transform((value) => knownTimeZone(value) ?? value),
);

/**
 * The zone a browser reports at sign-in: only its shape is checked here. A
 * name the server does not know is not a reason to refuse a sign-in (the
 * browser's time-zone data may be newer); the session then uses UTC and says so.
 */
export const BrowserTimeZone = z
  .string({ error: 'timeZone must be the name of a time zone, as text' })
  .check(z.maxLength(MAX_ZONE_LENGTH, `timeZone must be at most ${MAX_ZONE_LENGTH} characters`));

/** What the session answer tells the SPA about showing things to this member. */
export const DisplaySettings = z.looseObject({
  /** The zone every time is shown in and every date filter means. */
  timeZone: z.string(),
  timeZoneSource: z.enum(TIME_ZONE_SOURCES),
  /** The member's own choice; null: their browser's zone (`browserTimeZone`). */
  chosenTimeZone: z.nullable(z.string()),
  /** The zone the browser reported at sign-in; null when it reported none the server knows. */
  browserTimeZone: z.nullable(z.string()),
  colorScheme: ColorScheme,
});
export type DisplaySettings = z.infer<typeof DisplaySettings>;

/** PATCH /api/console/account/display/: either or both; `timeZone: null` goes back to the browser's. */
export const DisplaySettingsRequest = z.strictObject({
  timeZone: z.optional(z.nullable(TimeZoneName)),
  colorScheme: z.optional(
    z.enum(COLOR_SCHEMES, { error: 'colorScheme must be one of system, light or dark' }),
  ),
});
export type DisplaySettingsRequest = z.input<typeof DisplaySettingsRequest>;

/** The settings in force: the member's choice, else the browser's known zone, else UTC. */
export function effectiveDisplay(input: {
  chosenTimeZone: string | null;
  browserTimeZone: string | null;
  colorScheme: ColorScheme;
}): DisplaySettings {
  const chosen = input.chosenTimeZone;
  const browser = input.browserTimeZone;
  return {
    timeZone: chosen ?? browser ?? FALLBACK_TIME_ZONE,
    timeZoneSource: chosen ? 'member' : browser ? 'browser' : 'fallback',
    chosenTimeZone: chosen,
    browserTimeZone: browser,
    colorScheme: input.colorScheme,
  };
}
