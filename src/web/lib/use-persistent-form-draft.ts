import { useCallback, useEffect, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { DRAFT_PREFIX } from './form-drafts.ts';

function readDraft(storageKey: string): Record<string, unknown> | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(storageKey);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    // Unparsable or storage unavailable (private mode, quota): start empty.
    return null;
  }
}

function writeDraft(storageKey: string, values: Record<string, unknown>): void {
  try {
    globalThis.sessionStorage?.setItem(storageKey, JSON.stringify(values));
  } catch {
    // Quota or privacy settings: losing a draft must never break the form.
  }
}

/**
 * Keeps a react-hook-form form's in-progress values in sessionStorage under
 * `key` (name it after the route and the form, e.g. "/staff#create"), so a
 * member whose session expires mid-form signs in again and comes back to
 * what they had typed. sessionStorage is per tab and dies with it; secrets
 * (passwords) are never written: list them in `exclude`.
 *
 * Call `clearDraft()` once the form has been submitted successfully.
 */
export function usePersistentFormDraft<T extends FieldValues, C = unknown, O = T>(
  key: string,
  form: UseFormReturn<T, C, O>,
  options: { exclude?: ReadonlyArray<keyof T & string> } = {},
): { restored: boolean; clearDraft: () => void } {
  const storageKey = `${DRAFT_PREFIX}${key}`;
  const excludeKey = (options.exclude ?? []).join('\n');
  // Read once, on the first render: the draft as it was when the form opened.
  const [draft] = useState(() => readDraft(storageKey));

  useEffect(() => {
    const exclude = new Set(excludeKey ? excludeKey.split('\n') : []);
    if (draft) {
      const restoredValues = { ...form.getValues() };
      for (const [name, value] of Object.entries(draft)) {
        if (!exclude.has(name)) (restoredValues as Record<string, unknown>)[name] = value;
      }
      form.reset(restoredValues, { keepDefaultValues: true });
    }
    return form.subscribe({
      formState: { values: true },
      callback: ({ values, name }) => {
        // Only what the member changed: resets (after a submit, or the
        // restore above) carry no field name and must not write a draft.
        if (!name) return;
        const kept = Object.fromEntries(Object.entries(values).filter(([k]) => !exclude.has(k)));
        writeDraft(storageKey, kept);
      },
    });
  }, [storageKey, form, draft, excludeKey]);

  const clearDraft = useCallback(() => {
    try {
      globalThis.sessionStorage?.removeItem(storageKey);
    } catch {
      // Nothing to clear.
    }
  }, [storageKey]);

  return { restored: draft !== null, clearDraft };
}
