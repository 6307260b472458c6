import { Fragment, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import {
  Table,
  TableBody,
  TableCaption,
  TableContainer,
  TableHead,
  TableHeader,
} from './ui/table.tsx';

/**
 * A column heading: its text, or — where the heading reads differently to a
 * screen reader, or aligns differently — a name with its own content and class.
 */
export type DataTableColumn = string | { name: string; header: ReactNode; className?: string };

type Keyed = { id?: string | null | undefined };

/** What a table is, declared once beside its rows: the name, the caption, the columns. */
export interface DataTableSpec<Row extends Keyed = Keyed> {
  /** The table's accessible name; its scroll region is named "`label` table". */
  label: string;
  /** What the rows are and their order, for screen readers. */
  caption: string;
  columns: readonly DataTableColumn[];
  /** A row's React key where its id alone does not tell it apart; by default its id, else its position. */
  rowKey?: (row: Row, index: number) => string | number;
  /**
   * Below 768 px the rows are stacked cards instead of a table to scroll
   * sideways: the column headings stay for screen readers only, but the
   * first (a select-all box) stays in view. The row lays out its own cells.
   */
  cardsOnPhones?: boolean;
}

const byId = (row: Keyed, index: number) => row.id ?? index;

/**
 * A named, captioned table inside a focusable scroll region — the shape every
 * list in the console shares. Each row renders itself (a row may hold state,
 * like a reveal); the table owns the region, the caption, the column headers
 * and the dimming while `busy` (the previous page's rows stay on screen while
 * the next page loads).
 */
export function DataTable<Row extends Keyed>({
  spec,
  rows,
  busy,
  children,
}: {
  spec: DataTableSpec<Row>;
  rows: readonly Row[];
  busy?: boolean;
  children: (row: Row) => ReactNode;
}) {
  const rowKey = spec.rowKey ?? byId;
  const cards = spec.cardsOnPhones === true;
  return (
    <TableContainer label={`${spec.label} table`}>
      <Table
        aria-label={spec.label}
        aria-busy={busy}
        className={cn(busy && 'opacity-60', cards && 'max-md:block')}
      >
        <TableCaption>{spec.caption}</TableCaption>
        <TableHeader className={cn(cards && 'max-md:block')}>
          {/* A plain row: the header does not light up on hover as body rows (TableRow) do. */}
          <tr className={cn(cards && 'max-md:flex')}>
            {spec.columns.map((column, index) => {
              const onPhone = cards && index > 0 ? 'max-md:sr-only' : undefined;
              return typeof column === 'string' ? (
                <TableHead key={column} className={onPhone}>
                  {column}
                </TableHead>
              ) : (
                <TableHead key={column.name} className={cn(column.className, onPhone)}>
                  {column.header}
                </TableHead>
              );
            })}
          </tr>
        </TableHeader>
        <TableBody className={cn(cards && 'max-md:block')}>
          {rows.map((row, index) => (
            <Fragment key={rowKey(row, index)}>{children(row)}</Fragment>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
