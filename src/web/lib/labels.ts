import type { Party } from '#contract/transaction.ts';

/** "WAITING_CONFIRMATION" → "Waiting confirmation". For enum values shown to people. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '';
  const words = value.toLowerCase().split('_').filter(Boolean);
  const sentence = words.join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

const PAYMENT_METHOD_LABELS: Record<string, string> = {
  US_ACH: 'US ACH',
  US_WIRE: 'US wire',
  SEPA: 'SEPA',
  SWIFT: 'SWIFT',
  BANK_TRANSFER: 'Bank transfer',
};

export function paymentMethodLabel(value: string | null | undefined): string {
  if (!value) return '';
  return PAYMENT_METHOD_LABELS[value] ?? humanize(value);
}

/** Middle-truncates a chain address: "0x1234…cdef". */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** How a party is named in a table cell: its name, else its address, else its type. */
export function partyLabel(party: Party | undefined): string {
  if (!party) return '';
  if (party.name) return party.name;
  if (party.address) return shortAddress(party.address);
  if (party.type) return humanize(party.type);
  return party.id ?? '';
}
