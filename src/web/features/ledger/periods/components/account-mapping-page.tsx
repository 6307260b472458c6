import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  JOURNAL_CATEGORIES,
  JOURNAL_CATEGORY_LABELS,
  type JournalMapping,
  type JournalVaultAccount,
} from '#contract/ledger-periods.ts';
import type { Vault } from '#contract/reference.ts';
import { TextField } from '../../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../../components/form-card.tsx';
import { CursorPagination } from '../../../../components/pagination.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { Input } from '../../../../components/ui/input.tsx';
import { PageSection } from '../../../../components/page-section.tsx';
import { ErrorState } from '../../../../components/query-state.tsx';
import { ApiError, describeError } from '../../../../lib/api-errors.ts';
import { periodQueries, useSetJournalMapping } from '../api/period-queries.ts';

/**
 * The journal's account mapping (admins of the whole organization): one
 * account code per vault and per category, set once. A vault's accounts for
 * single assets, set through the API, are kept as they are.
 */

const ACCOUNT_MESSAGE =
  'must be an account code of 1 to 40 letters, digits, spaces and . : / _ -, starting with a letter or digit';
const Account = z
  .string()
  .trim()
  .refine((v) => v === '' || /^[A-Za-z0-9][A-Za-z0-9 .:/_-]{0,39}$/.test(v), ACCOUNT_MESSAGE);

const Schema = z.object({
  categories: z.object(Object.fromEntries(JOURNAL_CATEGORIES.map((c) => [c, Account]))),
  // Keyed by `vaultKey`: a vault's code stays typed while other pages are shown.
  vaults: z.record(z.string(), Account),
});
type Values = z.infer<typeof Schema>;

type ListedVault = Vault & { id: string };

/** A form key per vault that can never read as an array index. */
const vaultKey = (vaultId: string) => `v_${vaultId}`;

function MappingForm({
  mapping,
  vaults,
  paging,
}: {
  mapping: JournalMapping;
  vaults: ListedVault[];
  paging: ReactNode;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, '-')}`;
  const whole = useCallback(
    (vaultId: string) =>
      mapping.vaults.find((v) => v.vaultId === vaultId && !v.asset)?.account ?? '',
    [mapping],
  );
  const form = useForm<Values>({
    resolver: zodResolver(Schema),
    defaultValues: {
      categories: Object.fromEntries(
        JOURNAL_CATEGORIES.map((c) => [c, mapping.categories[c] ?? '']),
      ),
      vaults: Object.fromEntries(vaults.map((v) => [vaultKey(v.id), whole(v.id)])),
    },
  });
  // Every vault shown so far, by key: what the form sends a code (or none) for.
  const [seen] = useState(() => new Map<string, string>());
  // A vault first shown on a later page or a search starts at its saved code; one shown
  // before keeps what was typed in it.
  useEffect(() => {
    for (const v of vaults) {
      const key = vaultKey(v.id);
      if (seen.has(key)) continue;
      seen.set(key, v.id);
      form.resetField(`vaults.${key}`, { defaultValue: whole(v.id) });
    }
  }, [vaults, form, whole, seen]);
  const save = useSetJournalMapping();
  const onSubmit = form.handleSubmit((values) => {
    // Accounts for single assets, and for vaults never shown here, are kept as they are.
    const shown = new Set(seen.values());
    const kept = mapping.vaults.filter((v) => v.asset || !shown.has(v.vaultId));
    const sent: { row: JournalVaultAccount; key: string }[] = [...seen].flatMap(
      ([key, vaultId]) => {
        const account = values.vaults[key]?.trim() ?? '';
        return account ? [{ row: { vaultId, asset: null, account }, key }] : [];
      },
    );
    const body: JournalMapping = {
      vaults: [...kept, ...sent.map((s) => s.row)],
      categories: Object.fromEntries(
        JOURNAL_CATEGORIES.map((c) => [c, values.categories[c]?.trim() || null]),
      ),
    };
    save.mutate(body, {
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        for (const { field, message } of error.fields ?? []) {
          const category = /^categories\.(\w+)$/.exec(field)?.[1];
          if (category) form.setError(`categories.${category}`, { type: 'server', message });
          const row = /^vaults\.(\d+)\./.exec(field)?.[1];
          const key =
            // eslint-disable-next-line no-restricted-syntax -- a row's index in the list sent
            row === undefined ? undefined : sent[Number(row) - kept.length]?.key;
          if (key !== undefined) form.setError(`vaults.${key}`, { type: 'server', message });
        }
      },
    });
  });
  const fieldLevel = save.error instanceof ApiError && save.error.fields?.length;
  const bound = { form, fieldId };
  return (
    <FormCard
      title="Account codes"
      titleHidden
      onSubmit={onSubmit}
      error={save.isError && !fieldLevel ? `Not saved: ${describeError(save.error)}` : null}
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="text-lg font-semibold text-slate-900">Categories</legend>
        {JOURNAL_CATEGORIES.map((c) => (
          <TextField
            key={c}
            {...bound}
            name={`categories.${c}`}
            label={JOURNAL_CATEGORY_LABELS[c]}
            autoComplete="off"
          />
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-3">
        <legend className="text-lg font-semibold text-slate-900">Vaults</legend>
        {vaults.length === 0 ? (
          <p className="text-sm text-slate-700">No vault matches.</p>
        ) : (
          vaults.map((v) => (
            <TextField
              key={v.id}
              {...bound}
              name={`vaults.${vaultKey(v.id)}`}
              label={`${v.vaultName ?? v.id} (every asset)`}
              autoComplete="off"
            />
          ))
        )}
        {paging}
      </fieldset>
      <FormActions>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save the mapping
        </SubmitButton>
      </FormActions>
      <p role="status" className="text-sm text-slate-800">
        {save.isSuccess ? 'The mapping is saved.' : ''}
      </p>
    </FormCard>
  );
}

/** The vaults' pages: a name to search by, and the cursors of the pages walked (the first is undefined). */
function useVaultPages() {
  const [name, setName] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors.at(-1);
  const vaults = useQuery({
    ...periodQueries.mappingVaults(name, cursor),
    placeholderData: keepPreviousData,
  });
  const list = useMemo(
    () => (vaults.data?.results ?? []).filter((v): v is ListedVault => !!v.id),
    [vaults.data],
  );
  return {
    vaults,
    list,
    page: cursors.length,
    search: (next: string) => {
      setName(next.trim());
      setCursors([undefined]);
    },
    next: () => {
      const nextCursor = vaults.data?.nextCursor;
      if (nextCursor) setCursors((c) => [...c, nextCursor]);
    },
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
  };
}

function VaultSearch({ onSearch }: { onSearch: (name: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  return (
    <form
      role="search"
      aria-label="Vaults"
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text);
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium text-slate-900">
          Vault name
        </label>
        <Input
          id={id}
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
          className="w-72"
        />
      </div>
      <Button type="submit" size="sm">
        Find vaults
      </Button>
    </form>
  );
}

export function AccountMappingPage() {
  const mapping = useQuery(periodQueries.mapping());
  const pages = useVaultPages();
  const { vaults } = pages;
  const failed = mapping.error ?? vaults.error;
  return (
    <PageSection name="ledger-accounts" heading="Journal account mapping" className="gap-6">
      <p className="max-w-3xl text-sm text-slate-700">
        Each closed month’s journal books every movement twice: to its vault’s account and to its
        category’s. A journal is refused until every account it needs has a code here. Closed months
        are on the{' '}
        <Link to="/ledger/periods" className="text-blue-800 underline">
          Ledger periods
        </Link>{' '}
        page.
      </p>
      <VaultSearch onSearch={pages.search} />
      {failed ? (
        <ErrorState
          title="The mapping could not be loaded"
          error={failed}
          onRetry={() => void Promise.all([mapping.refetch(), vaults.refetch()])}
          retrying={mapping.isFetching || vaults.isFetching}
        />
      ) : mapping.data && vaults.data ? (
        <MappingForm
          mapping={mapping.data.mapping}
          vaults={pages.list}
          paging={
            <CursorPagination
              label="Vault pages"
              page={pages.page}
              hasPrevious={pages.page > 1}
              hasNext={vaults.data.hasNext ?? false}
              busy={vaults.isFetching}
              onPrevious={pages.previous}
              onNext={pages.next}
            />
          }
        />
      ) : (
        <p className="text-sm text-slate-700">Loading the mapping…</p>
      )}
    </PageSection>
  );
}
