import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../../components/ui/badge.tsx';
import { sessionQueries } from '../../../lib/session-queries.ts';

/**
 * Which custody service the console acts on, always in view: the embedded
 * sandbox (demo data, nothing real moves) or the upstream API's host.
 */
export function BackendBadge() {
  const backend = useQuery(sessionQueries.backend()).data;
  if (!backend) return null;
  if (backend.kind === 'sandbox') {
    return (
      <Badge tone="warning" title="The embedded sandbox: demo data, no real funds move">
        Sandbox
      </Badge>
    );
  }
  return (
    <Badge tone="info" title="Requests go to this custody API">
      Upstream: {backend.host}
    </Badge>
  );
}
