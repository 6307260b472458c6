import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stylesheetInliner } from './inline-styles.ts';

const SHEET = 'body{color:#123}.a::before{content:"</div>"}';
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const linked = (href: string) => `<link rel="stylesheet" crossorigin href="${href}">`;

describe('a rendered page’s stylesheets inlined', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'inline-styles-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'assets', 'index-aaa.css'), SHEET);
    await writeFile(path.join(dir, 'assets', 'closes-bbb.css'), 'a{}</style><script>x()</script>');
    await writeFile(path.join(dir, 'outside.css'), 'a{}');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes the build’s sheet into the head, and names its bytes’ hash for the policy', async () => {
    const inline = stylesheetInliner(dir);
    const page = await inline(`<head><title>t</title>${linked('/assets/index-aaa.css')}</head>`);
    expect(page.html).toBe(`<head><title>t</title><style>${SHEET}</style></head>`);
    expect(page.styleSources).toEqual([sha(SHEET)]);
  });

  it('leaves linked a sheet that would close its element, one that is gone, and one outside the build’s assets', async () => {
    const inline = stylesheetInliner(dir);
    const head = [
      linked('/assets/closes-bbb.css'),
      linked('/assets/gone-ccc.css'),
      linked('/outside.css'),
      linked('/assets/../outside.css'),
    ].join('');
    const page = await inline(head);
    expect(page.html).toBe(head);
    expect(page.styleSources).toEqual([]);
  });

  it('reads a sheet again once it has come back after being gone', async () => {
    const inline = stylesheetInliner(dir);
    const head = linked('/assets/later-ddd.css');
    expect((await inline(head)).html).toBe(head);
    await writeFile(path.join(dir, 'assets', 'later-ddd.css'), 'p{}');
    expect((await inline(head)).html).toBe('<style>p{}</style>');
  });
});
