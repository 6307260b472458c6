import { expect, test } from './auth.ts';
import { focusLive } from './keyboard.ts';

// The seed's history is read here (pages of it, weeks old, of every status): only the seed has
// so much, and no story adds to the old end, so the story reads it as an admin of the whole
// organization; the worker's other members see only their own sub-organization.
test.use({ role: 'orgAdmin' });

/**
 * The transactions list around the detail page and the export: the way back
 * from a transaction keeps the list's filters and page, and the exported file
 * holds exactly what the API lists for the same filter, across all pages.
 * Both read history older than a week, which only the seed writes and no
 * test changes, so concurrent tests cannot move the rows under them.
 */

/** The day a week ago: the URL's To holds a day, read in the member's zone (UTC for this admin). */
const weekAgo = () => new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

/** RFC 4180 fields: quotes around fields with commas, quotes or line breaks; "" is a quote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

test.describe('Transactions list, detail and export', () => {
  test('back to the list from a transaction keeps the filters and the page', async ({ page }) => {
    const until = weekAgo();
    await page.goto(`/transactions?status=COMPLETED&createdAtLte=${until}`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await expect(table.locator('tbody tr')).toHaveCount(20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    // Page 1's rows stay on screen, dimmed, until page 2's arrive.
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const listUrl = new URL(page.url());
    const firstRow = table.locator('tbody tr').first();
    const id = (await firstRow.getAttribute('data-transaction-id')) ?? '';

    // Keyboard: the row's link, then the page's own way back.
    await focusLive(firstRow.getByRole('link').first());
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/transactions/${id}$`));
    await focusLive(page.getByRole('link', { name: /All transactions/ }));
    await page.keyboard.press('Enter');

    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    const back = new URL(page.url());
    expect(back.pathname).toBe('/transactions');
    for (const key of ['status', 'createdAtLte', 'cursor', 'page'])
      expect(back.searchParams.get(key), key).toBe(listUrl.searchParams.get(key));
    await expect(page.getByLabel('Status')).toHaveValue('COMPLETED');
    await expect(table.locator('tbody tr').first()).toHaveAttribute('data-transaction-id', id);
  });

  test('the CSV export holds what the API lists for the same filter, every page', async ({
    page,
  }) => {
    const until = weekAgo();
    const filter = `status=COMPLETED&category=TRANSFER`;
    await page.goto(`/transactions?${filter}&createdAtLte=${until}`);
    await expect(
      page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first(),
    ).toBeVisible();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    await expect(page.getByText(/^Exported \d[\d,]* transactions? to /)).toBeVisible();
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const [header = [], ...rows] = parseCsv(
      Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
    const col = (name: string) => header.indexOf(name);

    const listed: Array<Record<string, string>> = [];
    let cursor = '';
    for (;;) {
      const res = await page.request.get(
        // The day's end in the member's zone, UTC: this admin signed in naming none.
        `/api/external/transactions/?${filter}&createdAtLte=${until}T23:59:59.999Z&limit=100&cursor=${cursor}`,
      );
      expect(res.status()).toBe(200);
      const body = (await res.json()) as {
        results: Array<Record<string, string>>;
        nextCursor?: string | null;
        hasNext?: boolean;
      };
      listed.push(...body.results);
      if (!body.hasNext || !body.nextCursor) break;
      cursor = body.nextCursor;
    }
    expect(listed.length).toBeGreaterThan(0);
    expect(rows).toHaveLength(listed.length);
    rows.forEach((row, i) => {
      const tx = listed[i] ?? {};
      expect(row[col('id')]).toBe(tx.id);
      expect(row[col('status')]).toBe('COMPLETED');
      expect(row[col('category')]).toBe('TRANSFER');
      // Exactly as the API gave it: no rounding, no reformatting.
      expect(row[col('amount')]).toBe(tx.amount);
      expect(row[col('asset')]).toBe(tx.asset);
      expect(new Date(row[col('createdAt')] ?? '').toISOString()).toBe(
        new Date(tx.createdAt ?? '').toISOString(),
      );
    });
  });
});
