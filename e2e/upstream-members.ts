/** The staff e2e/upstream-pair.ts creates on the upstream console with its CLI. */
export const UPSTREAM_MEMBERS = {
  initiator: { email: 'initiator@upstream.test', password: 'upstream-initiator-pass' },
  approver: { email: 'approver@upstream.test', password: 'upstream-approver-pass' },
} as const;

/**
 * Where the upstream pair's output goes (e2e/global-setup.ts starts it), beside the main
 * server's data directory: read by the upstream stories when the pair never answers.
 */
export function upstreamPairLog(dataDir: string): string {
  return `${dataDir}.upstream-pair.log`;
}
