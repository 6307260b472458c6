import { useId, useState, type FormEvent } from 'react';
import {
  PAYMENT_ROW_KINDS,
  type PaymentCheckError,
  type PaymentRow,
  type PaymentRowInput,
} from '#contract/payment-runs.ts';
import { describeError } from '../../../lib/api-errors.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';

/** The names pickers show: vaults and contacts the member may see, by id. */
export interface RunNames {
  vaults: ReadonlyArray<{ id: string; name: string }>;
  contacts: ReadonlyArray<{ id: string; name: string }>;
}

type Draft = Record<
  | 'kind'
  | 'sourceVaultId'
  | 'contactId'
  | 'address'
  | 'bankAccountId'
  | 'asset'
  | 'blockChain'
  | 'amount'
  | 'reference'
  | 'memo',
  string
>;

function draftOf(row: PaymentRow): Draft {
  return {
    kind: row.kind,
    sourceVaultId: row.sourceVaultId,
    contactId: row.contactId ?? '',
    address: row.address ?? '',
    bankAccountId: row.bankAccountId ?? '',
    asset: row.asset,
    blockChain: row.blockChain,
    amount: row.amount,
    reference: row.reference,
    memo: row.memo ?? '',
  };
}

/** The row as sent: an empty field is a field not given (the server names what is missing). */
export function rowInputOf(draft: Draft): PaymentRowInput {
  const given = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const input: Record<string, string | undefined> = {
    kind: draft.kind,
    sourceVaultId: draft.sourceVaultId.trim(),
    contactId: given(draft.contactId),
    address: given(draft.address),
    bankAccountId: given(draft.bankAccountId),
    asset: draft.asset.trim(),
    blockChain: draft.blockChain.trim(),
    amount: draft.amount.trim(),
    reference: draft.reference.trim(),
    memo: given(draft.memo),
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input as PaymentRowInput;
}

/** Options naming each known item, and the row's own id when it is none of them. */
function options(known: RunNames['vaults'], current: string) {
  const list = known.map((k) => ({ value: k.id, label: k.name }));
  if (current && !known.some((k) => k.id === current))
    list.unshift({ value: current, label: `Unknown: ${current}` });
  return list;
}

/**
 * One row fixed in place: each field with the check errors addressed to it
 * (and the server's refusal of the row, named by field), saved as a PATCH of
 * the whole row; the server checks the run again and answers it.
 */
export function RowEditor({
  row,
  names,
  saving,
  error,
  onSave,
  onCancel,
}: {
  row: PaymentRow;
  names: RunNames;
  saving: boolean;
  error: unknown;
  onSave: (input: PaymentRowInput) => void;
  onCancel: () => void;
}) {
  const base = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(row));
  const refused =
    error && typeof error === 'object' && 'fields' in error && Array.isArray(error.fields)
      ? (error.fields as { field: string; message: string }[])
      : [];
  const errorOf = (field: keyof Draft) => {
    const messages = [
      ...row.errors.filter((e: PaymentCheckError) => e.field === field).map((e) => e.message),
      ...refused.filter((f) => f.field === field).map((f) => f.message),
    ];
    return messages.length ? messages.join('; ') : undefined;
  };
  const set = (field: keyof Draft) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));
  const id = (field: keyof Draft) => `${base}-${field}`;

  function text(field: keyof Draft, label: string, hint?: string) {
    const fieldError = errorOf(field);
    return (
      <Field id={id(field)} label={label} error={fieldError} {...(hint ? { hint } : {})}>
        <Input
          id={id(field)}
          value={draft[field]}
          onChange={(e) => set(field)(e.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={describedBy(id(field), { hint, error: fieldError })}
        />
      </Field>
    );
  }

  function picker(field: 'sourceVaultId' | 'contactId', label: string, known: RunNames['vaults']) {
    const fieldError = errorOf(field);
    return (
      <Field id={id(field)} label={label} error={fieldError}>
        <Select
          id={id(field)}
          value={draft[field]}
          onChange={(e) => set(field)(e.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={describedBy(id(field), { error: fieldError })}
        >
          {field === 'contactId' ? <option value="">None (an address instead)</option> : null}
          {options(known, draft[field]).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </Field>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(rowInputOf(draft));
  };
  const kindError = errorOf('kind');

  return (
    <form
      onSubmit={submit}
      aria-label={`Fix row ${row.index}`}
      className="flex flex-col gap-3 rounded-md border border-slate-300 bg-slate-50 p-3"
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Field id={id('kind')} label="Kind" error={kindError}>
          <Select
            id={id('kind')}
            value={draft.kind}
            onChange={(e) => set('kind')(e.target.value)}
            aria-describedby={describedBy(id('kind'), { error: kindError })}
          >
            {PAYMENT_ROW_KINDS.map((k) => (
              <option key={k} value={k}>
                {k === 'CRYPTO' ? 'Crypto' : 'Fiat (off-ramp)'}
              </option>
            ))}
          </Select>
        </Field>
        {picker('sourceVaultId', 'Source vault', names.vaults)}
        {draft.kind === 'CRYPTO' ? (
          <>
            {picker('contactId', 'Contact', names.contacts)}
            {text('address', 'Address', 'Only when no contact is chosen')}
          </>
        ) : (
          text('bankAccountId', 'Bank account id')
        )}
        {text('asset', 'Asset')}
        {text('blockChain', 'Chain')}
        {text('amount', 'Amount')}
        {text('reference', 'Reference')}
        {text('memo', 'Memo')}
      </div>
      {error && refused.length === 0 ? (
        <p role="alert" className="text-sm text-red-800">
          {describeError(error)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" size="sm" disabled={saving}>
          {saving ? 'Saving…' : `Save row ${row.index}`}
        </Button>
        <Button type="button" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
