import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildReferenceData } from '../src/server/custody/sandbox/seed/reference-data.ts';
import { SeedRandom } from '../src/server/custody/sandbox/seed/random.ts';

/**
 * Browser stories use their worker's own world (e2e/worker-world.ts: a
 * sub-organization, vaults, contacts), never the seed's vaults and contacts
 * by name: two workers' stories that spent from or listed one seeded vault
 * saw each other's balances and rows. And they wait for a page to be taken
 * over by the browser with one helper (expectHydrated, e2e/keyboard.ts),
 * never for the network to fall quiet, which a page that polls or streams
 * reaches late or never.
 */
const e2e = new URL('../e2e/', import.meta.url);

const seeded = buildReferenceData(new SeedRandom(1), new Date(0));
/** The names are the seed's plan, whatever its random draws. */
const SEEDED_NAMES = [
  ...seeded.vaults.map((v) => v.vaultName),
  ...seeded.contacts.map((c) => c.name),
].filter((name): name is string => Boolean(name));

/** Each line of `text` waiting for the network to fall quiet or naming a seeded vault or contact. */
export function seedSignsIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => [
      ...(line.includes('networkidle') ? [`${i + 1}: networkidle`] : []),
      ...SEEDED_NAMES.filter((name) => line.includes(name)).map((name) => `${i + 1}: ${name}`),
    ]);
}

const specs = () => readdirSync(e2e).filter((name) => name.endsWith('.ts'));

describe('browser stories own their data and wait for hydration one way', () => {
  it('finds a seeded name or a network-idle wait wherever one is written', () => {
    expect(SEEDED_NAMES).toEqual(expect.arrayContaining(['Treasury Main', 'Cold Reserve']));
    expect(seedSignsIn("await page.waitForLoadState('networkidle');")).toEqual(['1: networkidle']);
    expect(seedSignsIn("x\nawait choose(form.getByLabel('From vault'), 'Treasury Main');")).toEqual(
      ['2: Treasury Main'],
    );
    expect(seedSignsIn('await choose(from, world.funded.name);')).toEqual([]);
  });

  it('no story waits for the network to fall quiet', () => {
    const found = specs().flatMap((name) =>
      seedSignsIn(readFileSync(new URL(name, e2e), 'utf8'))
        .filter((hit) => hit.endsWith(': networkidle'))
        .map((hit) => `e2e/${name}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('no story names a seeded vault or contact', () => {
    const found = specs().flatMap((name) =>
      seedSignsIn(readFileSync(new URL(name, e2e), 'utf8')).map((hit) => `e2e/${name}:${hit}`),
    );
    expect(found).toEqual([]);
  });
});
