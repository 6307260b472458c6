import { useQuery } from '@tanstack/react-query';
import { referenceQueries } from './reference-queries.ts';
import { useSession } from './session-queries.ts';

/**
 * Where a propose page (a bank account, a contact) proposes, in words: the
 * scope chosen above, else a restricted member's only sub-organization, else
 * the whole organization. A member held to several
 * sub-organizations must choose one (the server refuses the others).
 */
export function useProposalScope(subOrgId: string | undefined): string {
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const own = useSession()?.member.subOrgIds ?? null;
  const proposedIn = subOrgId ?? (own?.length === 1 ? own[0] : undefined);
  const subOrgName = subOrgs.data?.results.find((s) => s.id === proposedIn)?.name;
  let scopeLabel: string;
  if (proposedIn) scopeLabel = subOrgName ?? proposedIn;
  else if (own)
    scopeLabel =
      'none of your sub-organizations yet: choose one in the scope selector above before proposing';
  else
    scopeLabel =
      'the whole organization (no sub-organization; choose a scope above to propose it for one)';
  return scopeLabel;
}
