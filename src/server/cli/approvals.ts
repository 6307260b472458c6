import { signaturesOf } from '../capabilities/approvals/signing/signatures.store.ts';
import { verifiedSignatures } from '../capabilities/approvals/signing/verify.ts';
import { CliError, UsageError, type CliCommand } from './command.ts';

/**
 * `approvals verify --id <item>`: every staff decision stored on an item,
 * each signature checked again from the stored record alone (the card, the
 * challenge's parts, the assertion and the public key kept with it), as the
 * item's page shows them. The summary line, then one line per decision.
 * Exit code 1 when any stored signature does not verify.
 */
export const approvalsVerify: CliCommand = {
  group: 'approvals',
  action: 'verify',
  summary: "Check again every passkey signature stored on an item's decisions; exit 1 if any fails",
  needs: 'console',
  options: {
    id: {
      description: 'the transaction, bank account or contact id',
      valueName: 'ID',
      required: true,
    },
  },
  validate(options) {
    if (!options.id?.trim()) throw new UsageError('--id must not be empty');
  },
  async run({ db, io }, options) {
    const id = options.id ?? '';
    const rows = await signaturesOf(db, [id]);
    if (rows.length === 0) throw new CliError(`No staff decision is stored for "${id}"`);
    const { signatures, summary } = await verifiedSignatures(id, null, rows);
    io.stdout(summary);
    for (const s of signatures) {
      const key = s.credentialKind ? `${s.credentialKind} “${s.credentialName ?? ''}”` : 'unsigned';
      const verdict = s.credentialKind ? (s.valid ? 'valid' : `INVALID: ${s.problem ?? ''}`) : '-';
      const counts = s.counts ? 'counts' : `does not count: ${s.voidedBecause ?? ''}`;
      io.stdout(
        `${s.decidedAt}  ${s.decision}  ${s.decidedBy} (${key})  intent ${s.digest}  ${verdict}; ${counts}`,
      );
    }
    const failed = signatures.filter((s) => s.credentialKind !== null && !s.valid).length;
    if (failed > 0)
      throw new CliError(
        `${failed} stored ${failed === 1 ? 'signature does' : 'signatures do'} not verify`,
      );
  },
};
