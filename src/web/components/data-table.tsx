import { Fragment, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import {
  Table,
  TableBody,
  TableCaption,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from './ui/table.tsx';

/**
 * A column heading: its text, or — where the heading reads differently to a
 * screen reader, or aligns differently — a name with its own content and class.
 */
export type DataTableColumn = string | { name: string; header: ReactNode; className?: string };

/** What a table is, declared once beside its rows: the name, the caption, the columns. */
export interface DataTableSpec {
  /** The table's accessible name; its scroll region is named "`label` table". */
  label: string;
  /** What the rows are and their order, for screen readers. */
  caption: string;
  columns: readonly DataTableColumn[];
}

type Keyed = { id?: string | null | undefined };

/**
 * A named, captioned table inside a focusable scroll region — the shape every
 * list in the console shares. Each row renders itself (a row may hold state,
 * like a reveal); the table owns the region, the caption, the column headers
 * and the dimming while `busy` (the previous page's rows stay on screen while
 * the next page loads). Rows are keyed by their id, else their position.
 */
export function DataTable<Row extends Keyed>({
  spec,
  rows,
  rowKey = (row, index) => row.id ?? index,
  busy,
  children,
}: {
  spec: DataTableSpec;
  rows: readonly Row[];
  rowKey?: (row: Row, index: number) => string | number;
  busy?: boolean;
  children: (row: Row) => ReactNode;
}) {
  return (
    <TableContainer label={`${spec.label} table`}>
      <Table aria-label={spec.label} aria-busy={busy} className={cn(busy && 'opacity-60')}>
        <TableCaption>{spec.caption}</TableCaption>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {spec.columns.map((column) =>
              typeof column === 'string' ? (
                <TableHead key={column}>{column}</TableHead>
              ) : (
                <TableHead key={column.name} className={column.className}>
                  {column.header}
                </TableHead>
              ),
            )}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row, index) => (
            <Fragment key={rowKey(row, index)}>{children(row)}</Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
