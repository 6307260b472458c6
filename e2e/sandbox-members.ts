/**
 * The staff e2e/sandbox-server.ts makes on the main test server with the
 * CLI, as an operator makes a console's first admins: no member made them, so
 * no member is linked to them. Their credentials are written to a JSON file
 * beside the server's data directory, for the workers to read.
 */

/** The two admins that make each worker's own members (e2e/worker-members.ts). */
export type SandboxMemberKey = 'memberMaker' | 'memberChecker';

export type SandboxMember = {
  email: string;
  name: string;
  password: string;
  /** Recovery codes no sign-in took yet: each signs in once, with no wait for a time step. */
  recoveryCodes: string[];
};

export type SandboxMembers = Record<SandboxMemberKey, SandboxMember>;

/** The file beside `dataDir` (E2E_DATA_DIR in the workers, DATA_DIR in the server script). */
export function sandboxMembersFile(dataDir: string): string {
  return `${dataDir}.members.json`;
}
