import { maskAccountNumber } from './bank-account-record.ts';
import type { BankDetails, Party } from './party-record.ts';

/**
 * The bank of a ramp's party as both SDKs' ramp examples read it (`bank`;
 * the party's `bankDetails` keep what they were).
 *
 * - The account a payer wires an on-ramp's or FX's money to (the provider's
 *   settlement account, the transaction's `source`): the bank, the
 *   beneficiary, the rail and currency, the routing number or BIC (they name
 *   the bank, not the account) and the account number masked, from creation
 *   on and in every list. Its IBAN (the account's full number) only once the
 *   transaction is approved, as the deposit instructions are: nobody is told
 *   where to pay before four-eyes. The full account number is never here;
 *   it is in `depositInstructions.bankDetails`, once approved.
 * - A customer's account a ramp pays (`destination`): masked, without its
 *   routing number, as every customer's account is shown.
 */

/** The rail as a bank account and the Python SDK name it (`US_ACH`), whichever name the ramp recorded (`ACH`). */
function paymentMethodName(rail: string | undefined): string | undefined {
  if (rail === 'ACH') return 'US_ACH';
  if (rail === 'WIRE') return 'US_WIRE';
  return rail;
}

function defined(record: Record<string, string | undefined>): BankDetails {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out as BankDetails;
}

/** Where the payer sends the money, as `source.bank` shows it; `approved` lets the IBAN through. */
export function depositBank(
  instructions: { paymentRail?: string; currency?: string; bankDetails?: BankDetails },
  approved: boolean,
): BankDetails {
  const details = instructions.bankDetails ?? {};
  return defined({
    bankName: details.bankName,
    beneficiaryName: details.beneficiaryName ?? details.accountName,
    accountNumberMasked: maskAccountNumber(details.accountNumber ?? details.iban) || undefined,
    routingNumber: details.routingNumber,
    swiftBic: details.swiftBic ?? details.swiftCode,
    paymentRail: paymentMethodName(instructions.paymentRail ?? details.paymentRail),
    currency: instructions.currency ?? details.currency,
    bankAddress: details.bankAddress,
    country: details.country,
    iban: approved ? details.iban : undefined,
  });
}

/** A customer's account a ramp pays, as `destination.bank` shows it: already masked on the party. */
export function paidBank(party: Party, currency: string | undefined): BankDetails | undefined {
  const details = party.bankDetails;
  if (!details) return undefined;
  return defined({
    bankName: details.bankName,
    beneficiaryName: details.beneficiaryName ?? details.accountName,
    accountNumberMasked: details.accountNumberMasked,
    paymentRail: paymentMethodName(details.paymentRail ?? party.paymentRail),
    currency: currency ?? details.currency,
    country: details.country,
  });
}
