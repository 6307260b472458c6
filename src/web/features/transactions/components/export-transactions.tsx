import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { describeError, isAbortError } from '../../../lib/api-errors.ts';
import type { TransactionListParams } from '../../../lib/api-client.ts';
import type { ExportProgress } from '../api/export-transactions.ts';

type ExportState =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ExportProgress }
  | { kind: 'done'; rows: number; fileName: string }
  | { kind: 'cancelled'; rows: number }
  | { kind: 'failed'; message: string };

function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const count = (n: number) => `${n.toLocaleString('en-US')} transaction${n === 1 ? '' : 's'}`;

/**
 * "Export CSV" for the list's current filters, across all pages. While it
 * runs the page stays usable: progress is shown and announced, and Cancel
 * (which takes the focus) stops it. Leaving the page cancels it too.
 */
export function ExportTransactions({
  filters,
  timeZone,
}: {
  filters: Omit<TransactionListParams, 'cursor' | 'limit'>;
  /** The member's zone: the file's times are written in it, as the list shows them. */
  timeZone: string;
}) {
  const [state, setState] = useState<ExportState>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const running = state.kind === 'running';

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (running) cancelButton.current?.focus();
  }, [running]);

  async function start() {
    const abort = new AbortController();
    controller.current = abort;
    let rows = 0;
    setState({ kind: 'running', progress: { rows: 0, pages: 0 } });
    try {
      // The export's code (paging, CSV) is fetched on the first click, not with the list.
      const { exportFileName, exportTransactionsCsv } =
        await import('../api/export-transactions.ts');
      const result = await exportTransactionsCsv({
        filters,
        timeZone,
        signal: abort.signal,
        onProgress: (progress) => {
          rows = progress.rows;
          setState({ kind: 'running', progress });
        },
      });
      const fileName = exportFileName();
      saveFile(result.blob, fileName);
      setState({ kind: 'done', rows: result.rows, fileName });
    } catch (error) {
      if (abort.signal.aborted || isAbortError(error)) setState({ kind: 'cancelled', rows });
      else setState({ kind: 'failed', message: describeError(error) });
    } finally {
      controller.current = null;
      startButton.current?.focus();
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      {running ? (
        <>
          <progress aria-label="Export progress" className="h-2 w-32" />
          <Button ref={cancelButton} size="sm" onClick={() => controller.current?.abort()}>
            Cancel export
          </Button>
        </>
      ) : (
        <Button ref={startButton} size="sm" onClick={() => void start()}>
          Export CSV
        </Button>
      )}
      <p aria-live="polite" className="text-sm text-slate-700" data-testid="export-status">
        {state.kind === 'running'
          ? `Exporting… ${count(state.progress.rows)} so far`
          : state.kind === 'done'
            ? `Exported ${count(state.rows)} to ${state.fileName}`
            : state.kind === 'cancelled'
              ? `Export cancelled after ${count(state.rows)}; no file was saved`
              : ''}
      </p>
      {state.kind === 'failed' ? (
        <p role="alert" className="text-sm text-red-800">
          Export failed: {state.message}
        </p>
      ) : null}
    </div>
  );
}
