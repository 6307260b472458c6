import { describe, expect, it } from 'vitest';
import { mergedFeatures } from './chromium-features.ts';

describe('mergedFeatures', () => {
  it("keeps Playwright's disabled features and adds ours, in one switch", () => {
    const merged = mergedFeatures(
      ['--headless', '--disable-features=PaintHolding,MediaRouter', '--no-sandbox'],
      ['WebUIOmniboxPopup', 'MediaRouter'],
    );
    expect(merged).toEqual({
      arg: '--disable-features=PaintHolding,MediaRouter,WebUIOmniboxPopup',
      ignore: ['--disable-features=PaintHolding,MediaRouter'],
    });
  });

  it('takes the last switch, as Chromium does, and ignores none when there is none', () => {
    expect(mergedFeatures(['--disable-features=A', '--disable-features=B'], ['C'])).toEqual({
      arg: '--disable-features=B,C',
      ignore: ['--disable-features=B'],
    });
    expect(mergedFeatures(['--headless'], ['C'])).toEqual({
      arg: '--disable-features=C',
      ignore: [],
    });
  });
});
