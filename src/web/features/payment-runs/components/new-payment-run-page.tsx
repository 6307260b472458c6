import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import { pathOf } from '#contract/endpoint.ts';
import { paymentRunTemplate } from '#contract/endpoints/payment-runs.ts';
import { PAYMENT_RUN_COLUMNS, type PaymentRun } from '#contract/payment-runs.ts';
import { PageSection } from '../../../components/page-section.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { referenceQueries, subOrgOptions } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { useCreatePaymentRun } from '../api/payment-run-mutations.ts';
import { columnMapping, fileHeaders } from '../csv-columns.ts';
import { rowInputOf } from './row-editor.tsx';

type TypedRow = Parameters<typeof rowInputOf>[0];

const EMPTY_ROW: TypedRow = {
  kind: 'CRYPTO',
  sourceVaultId: '',
  contactId: '',
  address: '',
  bankAccountId: '',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  amount: '',
  reference: '',
  memo: '',
};

/** The refusal's problems by field, as the server named them (`rows.2.amount`, `csv`, `name`). */
function problems(error: unknown): { field: string; message: string }[] {
  return error && typeof error === 'object' && 'fields' in error && Array.isArray(error.fields)
    ? (error.fields as { field: string; message: string }[])
    : [];
}

/**
 * `/payment-runs/new`: a run from a CSV file (dropped or picked; its headers
 * mapped to the run's columns when they differ; the template to start from)
 * or from rows typed in. Made as a draft and checked at once: its page shows
 * what to fix.
 */
export function NewPaymentRunPage({
  subOrgId,
  onCreated,
}: {
  subOrgId: string | undefined;
  onCreated: (run: PaymentRun) => void;
}) {
  const base = useId();
  const session = useSession();
  const restricted = (session?.member.subOrgIds ?? null) !== null;
  const subOrgs = subOrgOptions(useQuery(referenceQueries.subOrgs()).data);
  const vaults = useQuery(referenceQueries.vaults()).data?.results ?? [];
  const contacts = useQuery(referenceQueries.contacts()).data?.results ?? [];
  const create = useCreatePaymentRun();

  const [name, setName] = useState('');
  const [scope, setScope] = useState<string | undefined>(subOrgId);
  const [from, setFrom] = useState<'file' | 'rows'>('file');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [rows, setRows] = useState<TypedRow[]>([EMPTY_ROW]);
  const [dragging, setDragging] = useState(false);
  const [missing, setMissing] = useState<string | null>(null);

  const chosenScope = scope ?? (restricted && subOrgs.length === 1 ? subOrgs[0]?.value : undefined);
  const headers = file ? fileHeaders(file.text) : [];
  const mapping = columnMapping(headers, chosen);
  const refused = problems(create.error);

  async function take(picked: File | undefined) {
    if (!picked) return;
    setChosen({});
    setFile({ name: picked.name, text: await picked.text() });
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setMissing(null);
    if (!name.trim()) return setMissing('Give the run a name.');
    const common = { name: name.trim(), ...(chosenScope ? { subOrgId: chosenScope } : {}) };
    if (from === 'file') {
      if (!file) return setMissing('Choose a CSV file, or type the rows in.');
      if (!mapping.complete) return setMissing('Choose a column for every header of the file.');
      create.mutate(
        {
          from: 'file',
          body: {
            ...common,
            csv: file.text,
            ...(Object.keys(mapping.mapping).length ? { mapping: mapping.mapping } : {}),
          },
        },
        { onSuccess: onCreated },
      );
      return;
    }
    create.mutate(
      { from: 'rows', body: { ...common, rows: rows.map(rowInputOf) } },
      { onSuccess: onCreated },
    );
  }

  const setRow = (i: number, field: keyof TypedRow, value: string) =>
    setRows((list) => list.map((r, j) => (j === i ? { ...r, [field]: value } : r)));
  const nameError = refused.find((p) => p.field === 'name')?.message;
  const fileError = refused.find((p) => p.field === 'csv')?.message;

  return (
    <PageSection name="new-payment-run" heading="New payment run" className="gap-4">
      <p>
        <Link to="/payment-runs" className="text-sm text-blue-800 underline">
          All payment runs
        </Link>
      </p>
      <form onSubmit={submit} noValidate className="flex max-w-4xl flex-col gap-4">
        <Field id={`${base}-name`} label="Name" error={nameError}>
          <Input
            id={`${base}-name`}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={describedBy(`${base}-name`, { error: nameError })}
          />
        </Field>
        {subOrgs.length ? (
          <Field id={`${base}-scope`} label="Sub-organization">
            <Select
              id={`${base}-scope`}
              value={chosenScope ?? ''}
              onChange={(e) => setScope(e.target.value || undefined)}
            >
              <option value="">
                {restricted ? 'Choose a sub-organization' : 'None: the whole organization'}
              </option>
              {subOrgs.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </Select>
          </Field>
        ) : null}

        <fieldset className="flex flex-wrap gap-4">
          <legend className="mb-1 text-sm font-medium text-slate-900">Rows from</legend>
          {(
            [
              ['file', 'A CSV file'],
              ['rows', 'Typed in'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <Choice
                type="radio"
                name={`${base}-from`}
                value={value}
                checked={from === value}
                onChange={() => setFrom(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>

        {from === 'file' ? (
          <div className="flex flex-col gap-3">
            <div
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={`flex flex-col gap-2 rounded-lg border-2 border-dashed p-4 ${dragging ? 'border-blue-700 bg-blue-50' : 'border-slate-400'}`}
            >
              <Field
                id={`${base}-file`}
                label="CSV file"
                hint="Drop the file here or choose it. Headers on the first line."
                error={fileError}
              >
                <input
                  id={`${base}-file`}
                  type="file"
                  accept=".csv,text/csv"
                  onChange={(e) => void take(e.target.files?.[0])}
                  aria-describedby={describedBy(`${base}-file`, {
                    hint: true,
                    error: fileError,
                  })}
                  className="text-sm"
                />
              </Field>
              {file ? (
                <p className="text-sm text-slate-800">
                  {file.name}: {headers.length} columns
                </p>
              ) : null}
            </div>
            <p className="text-sm">
              <a href={pathOf(paymentRunTemplate, {})} download className="text-blue-800 underline">
                Download the template (CSV)
              </a>{' '}
              — columns: {PAYMENT_RUN_COLUMNS.join(', ')}.
            </p>
            {mapping.needed.length ? (
              <fieldset className="flex flex-col gap-2 rounded-md border border-slate-300 p-3">
                <legend className="px-1 text-sm font-medium text-slate-900">
                  Match the file’s headers to the run’s columns
                </legend>
                {mapping.needed.map((header) => (
                  <Field key={header} id={`${base}-map-${header}`} label={`Column for “${header}”`}>
                    <Select
                      id={`${base}-map-${header}`}
                      value={mapping.mapping[header] ?? ''}
                      onChange={(e) => setChosen((c) => ({ ...c, [header]: e.target.value }))}
                    >
                      <option value="">Choose a column</option>
                      {PAYMENT_RUN_COLUMNS.map((c) => (
                        <option key={c} value={c}>
                          {c}
                        </option>
                      ))}
                    </Select>
                  </Field>
                ))}
              </fieldset>
            ) : null}
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            {rows.map((row, i) => (
              <fieldset
                key={i}
                className="grid gap-3 rounded-md border border-slate-300 p-3 sm:grid-cols-3"
              >
                <legend className="px-1 text-sm font-medium text-slate-900">Row {i + 1}</legend>
                <Field id={`${base}-r${i}-vault`} label="Source vault">
                  <Select
                    id={`${base}-r${i}-vault`}
                    value={row.sourceVaultId}
                    onChange={(e) => setRow(i, 'sourceVaultId', e.target.value)}
                  >
                    <option value="">Choose a vault</option>
                    {vaults.map((v) =>
                      v.id ? (
                        <option key={v.id} value={v.id}>
                          {v.vaultName || v.id}
                        </option>
                      ) : null,
                    )}
                  </Select>
                </Field>
                <Field id={`${base}-r${i}-contact`} label="Contact">
                  <Select
                    id={`${base}-r${i}-contact`}
                    value={row.contactId}
                    onChange={(e) => setRow(i, 'contactId', e.target.value)}
                  >
                    <option value="">None (an address instead)</option>
                    {contacts.map((c) =>
                      c.id ? (
                        <option key={c.id} value={c.id}>
                          {c.name || c.id}
                        </option>
                      ) : null,
                    )}
                  </Select>
                </Field>
                {(
                  [
                    ['address', 'Address'],
                    ['asset', 'Asset'],
                    ['blockChain', 'Chain'],
                    ['amount', 'Amount'],
                    ['reference', 'Reference'],
                    ['memo', 'Memo'],
                  ] as const
                ).map(([field, label]) => (
                  <Field key={field} id={`${base}-r${i}-${field}`} label={label}>
                    <Input
                      id={`${base}-r${i}-${field}`}
                      value={row[field]}
                      onChange={(e) => setRow(i, field, e.target.value)}
                    />
                  </Field>
                ))}
                {rows.length > 1 ? (
                  <Button
                    type="button"
                    size="sm"
                    className="self-end"
                    onClick={() => setRows((list) => list.filter((_, j) => j !== i))}
                  >
                    Remove row {i + 1}
                  </Button>
                ) : null}
              </fieldset>
            ))}
            <Button
              type="button"
              className="self-start"
              onClick={() => setRows((list) => [...list, EMPTY_ROW])}
            >
              Add a row
            </Button>
          </div>
        )}

        {missing ? (
          <p role="alert" className="text-sm text-red-800">
            {missing}
          </p>
        ) : null}
        {create.isError ? (
          <div
            role="alert"
            className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
          >
            <p>{describeError(create.error)}</p>
            {refused.length > 1 ? (
              <ul className="mt-1 list-disc pl-5">
                {refused.map((p) => (
                  <li key={`${p.field}:${p.message}`}>
                    {p.field}: {p.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <Button type="submit" variant="primary" className="self-start" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create and check the run'}
        </Button>
      </form>
    </PageSection>
  );
}
