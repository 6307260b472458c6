import { useQuery } from '@tanstack/react-query';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { referenceQueries, subOrgOptions } from '../../../lib/reference-queries.ts';
import type { LedgerWho } from '../api/ledger-queries.ts';

/**
 * Whose ledger a page shows: the organization (what the member may see of
 * it), one sub-organization, or one vault. A native select, grouped; the
 * choice lives in the URL (`?subOrg=`, the console's scope, and `?vault=`).
 */
export function LedgerPicker({
  value,
  onChange,
}: {
  value: LedgerWho;
  onChange: (next: LedgerWho) => void;
}) {
  const vaults = useQuery(referenceQueries.vaults());
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const current = value.vaultId
    ? `vault:${value.vaultId}`
    : value.subOrgId
      ? `sub:${value.subOrgId}`
      : '';
  const vaultOptions = (vaults.data?.results ?? []).filter((v): v is typeof v & { id: string } =>
    Boolean(v.id),
  );
  return (
    <Field id="ledger-of" label="Ledger of" hint="The organization, a sub-organization or a vault">
      <Select
        id="ledger-of"
        aria-describedby="ledger-of-hint"
        value={current}
        onChange={(e) => {
          const [kind, ...rest] = e.target.value.split(':');
          const id = rest.join(':');
          onChange(kind === 'vault' ? { vaultId: id } : kind === 'sub' ? { subOrgId: id } : {});
        }}
      >
        <option value="">The organization</option>
        <optgroup label="Sub-organizations">
          {subOrgOptions(subOrgs.data).map((o) => (
            <option key={o.value} value={`sub:${o.value}`}>
              {o.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Vaults">
          {vaultOptions.map((v) => (
            <option key={v.id} value={`vault:${v.id}`}>
              {v.vaultName ?? v.id}
            </option>
          ))}
          {/* A vault opened by its link before the list has loaded still shows as chosen. */}
          {value.vaultId && !vaultOptions.some((v) => v.id === value.vaultId) ? (
            <option value={`vault:${value.vaultId}`}>{value.vaultId}</option>
          ) : null}
        </optgroup>
      </Select>
    </Field>
  );
}
