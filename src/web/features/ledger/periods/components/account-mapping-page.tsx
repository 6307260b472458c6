import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useMemo } from 'react';
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
import { PageSection } from '../../../../components/page-section.tsx';
import { ErrorState } from '../../../../components/query-state.tsx';
import { ApiError, describeError } from '../../../../lib/api-errors.ts';
import { referenceQueries } from '../../../../lib/reference-queries.ts';
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
  vaults: z.array(Account),
});
type Values = z.infer<typeof Schema>;

type ListedVault = Vault & { id: string };

function MappingForm({ mapping, vaults }: { mapping: JournalMapping; vaults: ListedVault[] }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, '-')}`;
  const whole = (vaultId: string) =>
    mapping.vaults.find((v) => v.vaultId === vaultId && !v.asset)?.account ?? '';
  const form = useForm<Values>({
    resolver: zodResolver(Schema),
    defaultValues: {
      categories: Object.fromEntries(
        JOURNAL_CATEGORIES.map((c) => [c, mapping.categories[c] ?? '']),
      ),
      vaults: vaults.map((v) => whole(v.id)),
    },
  });
  const save = useSetJournalMapping();
  const onSubmit = form.handleSubmit((values) => {
    // Accounts for single assets, and for vaults beyond the list shown, are kept as they are.
    const listed = new Set(vaults.map((v) => v.id));
    const kept = mapping.vaults.filter((v) => v.asset || !listed.has(v.vaultId));
    const sent: { row: JournalVaultAccount; index: number }[] = vaults.flatMap((v, index) => {
      const account = values.vaults[index]?.trim() ?? '';
      return account ? [{ row: { vaultId: v.id, asset: null, account }, index }] : [];
    });
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
          const index =
            // eslint-disable-next-line no-restricted-syntax -- a row's index in the list sent
            row === undefined ? undefined : sent[Number(row) - kept.length]?.index;
          if (index !== undefined) form.setError(`vaults.${index}`, { type: 'server', message });
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
        {vaults.map((v, index) => (
          <TextField
            key={v.id}
            {...bound}
            name={`vaults.${index}`}
            label={`${v.vaultName ?? v.id} (every asset)`}
            autoComplete="off"
          />
        ))}
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

export function AccountMappingPage() {
  const mapping = useQuery(periodQueries.mapping());
  const vaults = useQuery(referenceQueries.vaults());
  const list = useMemo(
    () => (vaults.data?.results ?? []).filter((v): v is ListedVault => !!v.id),
    [vaults.data],
  );
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
      {failed ? (
        <ErrorState
          title="The mapping could not be loaded"
          error={failed}
          onRetry={() => void Promise.all([mapping.refetch(), vaults.refetch()])}
          retrying={mapping.isFetching || vaults.isFetching}
        />
      ) : mapping.data && vaults.data ? (
        <MappingForm mapping={mapping.data.mapping} vaults={list} />
      ) : (
        <p className="text-sm text-slate-700">Loading the mapping…</p>
      )}
    </PageSection>
  );
}
