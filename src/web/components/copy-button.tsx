import { useState } from 'react';
import { Button } from './ui/button.tsx';

/** Copies `value` to the clipboard and says so (announced), or says it could not. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        size="sm"
        variant="ghost"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setState('copied'),
            () => setState('failed'),
          );
        }}
      >
        Copy
      </Button>
      <span role="status" className="text-xs text-slate-700">
        {state === 'copied'
          ? 'Copied'
          : state === 'failed'
            ? 'Could not copy; select the text instead'
            : ''}
      </span>
    </span>
  );
}
