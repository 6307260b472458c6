/**
 * The widths a story that names its width runs at: every story runs on a
 * desktop screen, and at a phone's 390 px as well only where a phone can
 * break what it shows: the header and its menu (phone-width), the approval
 * card and the approve dialogs (approval-card, approval-cost), and the list
 * whose rows become cards (slow-transactions); each page's fit and axe scan
 * at 390 px is small-screens'. A story that fills a form, signs in or moves
 * money takes the same steps at both widths, so a second run only doubles
 * its time: it runs at 1440 px alone.
 */
export const DESKTOP_ONLY: readonly number[] = [1440];
export const BOTH_WIDTHS: readonly number[] = [1440, 390];
