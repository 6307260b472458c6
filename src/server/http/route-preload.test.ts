import { describe, expect } from 'vitest';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { routePattern } from './route-preload.ts';

// A build's manifest as Vite writes it for TanStack's split route components and loaders.
const split = (route: string, part = 'component') =>
  `src/web/routes/${route}.tsx?tsr-split=${part}`;
const MANIFEST = {
  'index.html': { file: 'assets/index-aaa.js', imports: ['_shared-bbb.js'], isEntry: true },
  '_shared-bbb.js': { file: 'assets/shared-bbb.js' },
  '_table-ccc.js': { file: 'assets/table-ccc.js', imports: ['_shared-bbb.js'] },
  '_form-ddd.js': { file: 'assets/form-ddd.js' },
  [split('_authenticated')]: { file: 'assets/_authenticated-eee.js' },
  [split('_authenticated/transactions')]: {
    file: 'assets/transactions-fff.js',
    imports: ['_table-ccc.js'],
  },
  [split('_authenticated/transactions_.new')]: {
    file: 'assets/transactions_.new-ggg.js',
    imports: ['_form-ddd.js'],
  },
  [split('_authenticated/transactions_.$transactionId')]: {
    file: 'assets/transactions_._transactionId-hhh.js',
  },
  [split('_authenticated/transactions_.$transactionId', 'loader')]: {
    file: 'assets/transactions_._transactionId-loader-jjj.js',
  },
  [split('login')]: { file: 'assets/login-iii.js' },
  // A page split as one part, sharing a chunk, with a dialog it imports only on demand.
  [split('_authenticated/approvals', 'component---loader')]: {
    file: 'assets/approvals-kkk.js',
    imports: ['_common-lll.js'],
    dynamicImports: ['src/web/features/approvals/components/bulk-approve-dialog.tsx'],
  },
  '_common-lll.js': { file: 'assets/common-lll.js', imports: ['_shared-bbb.js'] },
  'src/web/features/approvals/components/bulk-approve-dialog.tsx': {
    file: 'assets/bulk-approve-dialog-mmm.js',
    imports: ['_dialog-nnn.js', '_common-lll.js'],
    isDynamicEntry: true,
  },
  '_dialog-nnn.js': { file: 'assets/dialog-nnn.js' },
};
const INDEX =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-aaa.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/shared-bbb.js"></head><body><div id="root"></div></body></html>';

// Pages other than sign-in are served to a live session only: one of its own.
const appTest = appTestWith({
  staticFiles: { 'index.html': INDEX, '.vite/manifest.json': JSON.stringify(MANIFEST) },
});

async function preloadsOf(t: TestApp, url: string): Promise<string[]> {
  const res = await t.anonymous(url, { headers: { accept: 'text/html', Cookie: t.admin.cookie } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1] ?? '',
  );
}

describe('route preloads in index.html', () => {
  appTest('names the page’s chunks, its layout’s and their imports, once each', async ({ t }) => {
    expect(await preloadsOf(t, '/transactions?status=PENDING')).toEqual([
      '/assets/shared-bbb.js',
      '/assets/_authenticated-eee.js',
      '/assets/transactions-fff.js',
      '/assets/table-ccc.js',
    ]);
  });

  appTest(
    'prefers a fixed path to a parameter, and loads form code only for the form, loaders included',
    async ({ t }) => {
      const form = await preloadsOf(t, '/transactions/new');
      expect(form).toContain('/assets/transactions_.new-ggg.js');
      expect(form).toContain('/assets/form-ddd.js');
      expect(form).not.toContain('/assets/transactions_._transactionId-hhh.js');
      const detail = await preloadsOf(t, '/transactions/0b6f8a52-1111-4222-8333-944445555666');
      expect(detail).toContain('/assets/transactions_._transactionId-hhh.js');
      // Its loader's chunk too: the page's data waits on it.
      expect(detail).toContain('/assets/transactions_._transactionId-loader-jjj.js');
      expect(form).not.toContain('/assets/transactions_._transactionId-loader-jjj.js');
      expect(detail).not.toContain('/assets/form-ddd.js');
      expect(await preloadsOf(t, '/login')).toContain('/assets/login-iii.js');
    },
  );

  appTest(
    'names a page split as one part and what it imports, never what it imports on demand',
    async ({ t }) => {
      expect(await preloadsOf(t, '/approvals')).toEqual([
        '/assets/shared-bbb.js',
        '/assets/_authenticated-eee.js',
        '/assets/approvals-kkk.js',
        '/assets/common-lll.js',
      ]);
    },
  );

  appTest('adds nothing for a path no route serves', async ({ t }) => {
    expect(await preloadsOf(t, '/no-such-page')).toEqual(['/assets/shared-bbb.js']);
  });
});

describe('routePattern', () => {
  appTest('reads TanStack file-route names', () => {
    expect(routePattern('_authenticated/index').pattern.test('/')).toBe(true);
    expect(routePattern('_authenticated/bank-accounts').pattern.test('/bank-accounts/')).toBe(true);
    const detail = routePattern('_authenticated/bank-accounts_.$bankAccountId');
    expect(detail.params).toBe(1);
    expect(detail.pattern.test('/bank-accounts/abc')).toBe(true);
    expect(detail.pattern.test('/bank-accounts/abc/more')).toBe(false);
  });
});
