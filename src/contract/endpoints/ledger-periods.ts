import * as z from 'zod/mini';
import { endpoint } from '../endpoint.ts';
import {
  JournalMapping,
  JournalMappingAnswer,
  JournalQuery,
  LedgerPeriod,
  LedgerPeriodList,
  ProposeLedgerClose,
} from '../ledger-periods.ts';

/**
 * Closing a month of the ledger under four eyes, and the accounting journal
 * (server/capabilities/ledger/periods/ and journal/). Both cover the whole
 * organization: a member held to some sub-organizations is refused them.
 */

export const listLedgerPeriods = endpoint({
  method: 'GET',
  path: '/api/console/ledger/periods/',
  summary:
    'The organization’s ledger periods, newest first: each month proposed for closing, closed (its closing balances and statement digest) or declined; the reporting zone and the next month that may be closed.',
  action: 'read ledger periods',
  permission: 'read',
  audit: false,
  answer: LedgerPeriodList,
});

export const proposeLedgerClose = endpoint({
  method: 'POST',
  path: '/api/console/ledger/periods/',
  summary:
    'Proposes closing a month in the organization’s reporting zone; a second admin decides it on its held item. Months close in order, once ended.',
  action: 'close ledger periods',
  permission: 'admin',
  audit: { action: 'ledger.close.propose', entityType: 'LEDGER_PERIOD' },
  body: ProposeLedgerClose,
  answer: LedgerPeriod,
  status: 201,
});

export const getJournalMapping = endpoint({
  method: 'GET',
  path: '/api/console/ledger/journal/mapping/',
  summary: 'The account codes the journal books each vault (or vault and asset) and category to.',
  action: 'read the journal’s account mapping',
  permission: 'admin',
  audit: false,
  answer: JournalMappingAnswer,
});

export const setJournalMapping = endpoint({
  method: 'PUT',
  path: '/api/console/ledger/journal/mapping/',
  summary: 'Replaces the journal’s account mapping.',
  action: 'change the journal’s account mapping',
  permission: 'admin',
  audit: { action: 'ledger.journal.mapping', entityType: 'LEDGER_JOURNAL' },
  body: JournalMapping,
  answer: JournalMappingAnswer,
});

export const exportJournal = endpoint({
  method: 'GET',
  path: '/api/console/ledger/journal/',
  summary:
    'A closed month’s accounting journal as CSV: balanced double-entry lines (date, account, debit, credit, currency, memo, reference, transaction id).',
  action: 'export the journal',
  permission: 'admin',
  audit: false,
  query: JournalQuery,
  answer: z.string(),
});
