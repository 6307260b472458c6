/**
 * The limit a page can reach: the same 20 rows the console lists, as one
 * static HTML table with no script, served by the console's own server.
 */

export interface ListedRow {
  id: string;
  category?: string;
  status?: string;
  amount?: string;
  asset?: string;
  createdAt?: string;
}

const escape = (s: string | undefined) =>
  (s ?? '').replace(
    /[&<>"]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch,
  );

export function staticTable(rows: readonly ListedRow[]): string {
  const body = rows
    .map(
      (r) =>
        `<tr><td><a href="/transactions/${escape(r.id)}">${escape(r.id)}</a></td>` +
        `<td>${escape(r.category)}</td><td>${escape(r.status)}</td>` +
        `<td>${escape(r.amount)} ${escape(r.asset)}</td><td>${escape(r.createdAt)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Transactions (static)</title></head>
<body><table><caption>Transactions</caption>
<thead><tr><th>ID</th><th>Category</th><th>Status</th><th>Amount</th><th>Created</th></tr></thead>
<tbody>
${body}
</tbody></table></body></html>
`;
}
