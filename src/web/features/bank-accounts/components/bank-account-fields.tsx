import type { ReactNode } from 'react';
import type { BankAccount, BankAccountTextField } from '#contract/bank-account.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '#contract/enums.ts';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import type { RevealedBankAccount } from '#contract/bank-account.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { paymentMethodLabel } from '../../../lib/labels.ts';
import { fieldSpec, groupIban } from '../rail-fields.ts';

const dash = <span className="text-slate-700">—</span>;

function isRail(value: string | undefined): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value ?? '');
}

/** The label a field has on this account's rail ("IBAN", "BIC (SWIFT code)"…). */
function labelFor(account: BankAccount, field: BankAccountTextField): string {
  const rail = account.paymentMethod;
  return isRail(rail) ? fieldSpec(rail, field).label : fieldSpec('BANK_TRANSFER', field).label;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-slate-200 py-2 sm:grid-cols-[14rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * Every field of a bank account. Numbers are as the server sent them
 * (masked for staff) unless `revealed` holds the full ones from the audited
 * reveal; an IBAN is shown grouped by four.
 */
export function BankAccountFields({
  account,
  revealed,
  subOrgName,
  proposedBy,
  numberActions,
}: {
  account: BankAccount;
  revealed?: RevealedBankAccount | undefined;
  subOrgName?: string | undefined;
  proposedBy?: string | undefined;
  /** Beside the account number: the reveal control, where the member may use it. */
  numberActions?: ReactNode;
}) {
  const accountNumber = revealed ? revealed.accountNumber : account.accountNumber;
  const routingNumber = revealed ? revealed.routingNumber : account.routingNumber;
  const text = (value: string | null | undefined) => value || dash;
  const number = (value: string | null | undefined) =>
    value ? (
      <span className="font-mono" data-revealed={revealed ? '' : undefined}>
        {revealed ? groupIban(value) : value}
      </span>
    ) : (
      dash
    );

  return (
    <dl className="border-t border-slate-200">
      <Row label="Status">
        <StatusBadge status={account.status} />
      </Row>
      <Row label="Payment method">{text(paymentMethodLabel(account.paymentMethod))}</Row>
      <Row label={labelFor(account, 'accountName')}>{text(account.accountName)}</Row>
      <Row label={labelFor(account, 'accountNumber')}>
        <span className="flex flex-wrap items-center gap-3">
          {number(accountNumber)}
          {numberActions}
        </span>
      </Row>
      {account.paymentMethod !== 'SEPA' || account.routingNumber ? (
        <Row label={labelFor(account, 'routingNumber')}>{number(routingNumber)}</Row>
      ) : null}
      <Row label={labelFor(account, 'bankName')}>{text(account.bankName)}</Row>
      <Row label={labelFor(account, 'streetLine')}>{text(account.streetLine)}</Row>
      <Row label={labelFor(account, 'city')}>{text(account.city)}</Row>
      <Row label={labelFor(account, 'state')}>{text(account.state)}</Row>
      <Row label={labelFor(account, 'postalCode')}>{text(account.postalCode)}</Row>
      <Row label="Country">{text(account.country)}</Row>
      <Row label="Your reference">{text(account.clientBankAccountId)}</Row>
      <Row label="Sub-organization">
        {account.subOrgId ? (subOrgName ?? account.subOrgId) : 'None (the whole organization)'}
      </Row>
      <Row label="Proposed by">{text(proposedBy ?? account.createdById)}</Row>
      <Row label="Created">{account.createdAt ? <DateTime iso={account.createdAt} /> : dash}</Row>
      <Row label="Last updated">
        {account.updatedAt ? <DateTime iso={account.updatedAt} /> : dash}
      </Row>
      <Row label="Bank account id">
        <span className="font-mono">{text(account.id)}</span>
      </Row>
    </dl>
  );
}
