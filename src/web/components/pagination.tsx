import { Button } from './ui/button.tsx';

/**
 * Previous/Next for cursor-paged lists. The page number is informative only:
 * with keyset cursors there is no "jump to page 7".
 */
export function CursorPagination({
  label,
  page,
  hasPrevious,
  previousLabel = 'Previous page',
  hasNext,
  busy,
  onPrevious,
  onNext,
}: {
  /** Names the navigation landmark, e.g. "Transactions pages". */
  label: string;
  page: number;
  hasPrevious: boolean;
  /** "Previous page", or "First page" when the way back is not known (a link opened afresh). */
  previousLabel?: string;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-4 py-3">
      {/* The number names the rows on screen: while the next page loads, the previous one's rows stay (dimmed). */}
      <p className="text-sm text-slate-700">{busy ? `Loading page ${page}…` : `Page ${page}`}</p>
      <div className="flex gap-2">
        <Button size="sm" onClick={onPrevious} disabled={!hasPrevious || busy}>
          <span aria-hidden="true">←</span> {previousLabel}
        </Button>
        <Button size="sm" onClick={onNext} disabled={!hasNext || busy}>
          Next page <span aria-hidden="true">→</span>
        </Button>
      </div>
    </nav>
  );
}
