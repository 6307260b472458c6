/** The staff e2e/upstream-pair.ts creates on the upstream console with its CLI. */
export const UPSTREAM_MEMBERS = {
  initiator: { email: 'initiator@upstream.test', password: 'upstream-initiator-pass' },
  approver: { email: 'approver@upstream.test', password: 'upstream-approver-pass' },
} as const;
