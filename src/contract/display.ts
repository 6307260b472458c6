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
 *
 * What a page reads; setting them (the request, the zone's check) is in
 * display-settings.ts, loaded with the account page.
 */

/** The console's one locale for amounts and dates (decimal-format.ts writes amounts the same way). */
export const CONSOLE_LOCALE = 'en-US';

export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
export const ColorScheme = z.enum(COLOR_SCHEMES);
export type ColorScheme = z.infer<typeof ColorScheme>;

/** Where the zone in use came from: the member's setting, their browser at sign-in, or neither (UTC). */
export const TIME_ZONE_SOURCES = ['member', 'browser', 'fallback'] as const;

/** When neither the member nor their browser named a zone the server knows. */
export const FALLBACK_TIME_ZONE = 'UTC';

/** The longest time-zone name taken (IANA's are at most 30 characters). */
export const MAX_ZONE_LENGTH = 64;

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
