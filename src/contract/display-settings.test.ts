import { describe, expect, it } from 'vitest';
import { knownTimeZone } from './display-settings.ts';

describe('knownTimeZone', () => {
  it('answers the runtime’s own spelling, the same when asked again', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(knownTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
      expect(knownTimeZone('europe/berlin')).toBe('Europe/Berlin');
      expect(knownTimeZone('utc')).toBe('UTC');
    }
  });

  it('knows no offset, no unknown zone, however often asked', () => {
    for (let i = 0; i < 2; i += 1) {
      expect(knownTimeZone('Mars/Olympus')).toBeUndefined();
      expect(knownTimeZone('+05:30')).toBeUndefined();
    }
  });
});
