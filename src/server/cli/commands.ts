import { apiUsersCreate, apiUsersRevoke } from './api-users.ts';
import { approvalsVerify } from './approvals.ts';
import type { CliCommand } from './command.ts';
import { staffResetFactor, staffResetPassword } from './staff-credentials.ts';
import { staffCreate } from './staff.ts';
import { webhooksAdd, webhooksList, webhooksRemove } from './webhooks.ts';

/** Every CLI command, in the order `--help` lists them. Add a command here and in its own file. */
export const COMMANDS: readonly CliCommand[] = [
  apiUsersCreate,
  apiUsersRevoke,
  approvalsVerify,
  staffCreate,
  staffResetFactor,
  staffResetPassword,
  webhooksAdd,
  webhooksList,
  webhooksRemove,
];
