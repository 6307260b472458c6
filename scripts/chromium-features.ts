import { chromium } from '@playwright/test';

/** Debian's Chromium (scripts/ensure-chromium.sh), unless CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser's own omnibox popup, kept out of the browser the bench and the
 * stories start: headless Chromium opens a window for every new context,
 * and for about half of them it started that window's omnibox popup, a web
 * page of its own in a renderer process of its own ("WebUI Top Renderer",
 * `chrome://omnibox-popup.top-chrome`), which ran 380–480 ms of main-thread
 * work beside the page being loaded, on a machine of two cores. A person's
 * browser has its window, and that popup, open before they load a page.
 */
const QUIET_FEATURES = [
  'PreloadTopChromeWebUI',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

const SWITCH = '--disable-features';

export interface FeatureArgs {
  /** The one `--disable-features` switch to pass, Playwright's list and ours. */
  arg: string;
  /** Playwright's own switch, to leave out (`ignoreDefaultArgs`); empty when it passes none. */
  ignore: string[];
}

/**
 * Playwright passes Chromium a `--disable-features` list of its own, and
 * Chromium keeps only the last of that switch: ours after it would turn
 * Playwright's back on (paint holding among them). So the two go as one.
 */
export function mergedFeatures(
  playwrightArgs: readonly string[],
  ours: readonly string[],
): FeatureArgs {
  const theirs = playwrightArgs.findLast((arg) => arg.startsWith(`${SWITCH}=`));
  const listed = theirs ? theirs.slice(SWITCH.length + 1).split(',') : [];
  const features = [...new Set([...listed, ...ours])].filter(Boolean);
  return { arg: `${SWITCH}=${features.join(',')}`, ignore: theirs ? [theirs] : [] };
}

/** Playwright's own list, read from the command line it starts Chromium with. */
export async function quietFeatureArgs(
  executablePath: string,
  args: string[],
): Promise<FeatureArgs> {
  const probe = await chromium.launchServer({ executablePath, args });
  try {
    return mergedFeatures(probe.process().spawnargs, QUIET_FEATURES);
  } finally {
    await probe.close();
  }
}
