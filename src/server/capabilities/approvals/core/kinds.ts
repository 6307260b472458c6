import { bankAccountKind } from '../card/bank-account.ts';
import { contactKind } from '../card/contact.ts';
import { transactionKind } from '../card/transaction.ts';
import { paymentRunKind } from '../payment-run/kind.ts';
import { paymentRunScheduleKind } from '../payment-run/schedule-kind.ts';
import { ledgerPeriodKind } from '../../ledger/periods/kind.ts';
import { policyPublishKind } from '../../policies/publish/policy-publish.ts';
import { ssoChangeKind } from '../sso-change/sso-change.ts';
import { staffChangeKind } from '../staff-change/staff-change.ts';
import type { ApprovableKind } from './kind.ts';

/** Every approvable kind, in the order an unknown id is asked about. */
export const APPROVABLE_KINDS: readonly ApprovableKind[] = [
  transactionKind,
  bankAccountKind,
  contactKind,
  paymentRunKind,
  paymentRunScheduleKind,
  staffChangeKind,
  policyPublishKind,
  ledgerPeriodKind,
  ssoChangeKind,
];
