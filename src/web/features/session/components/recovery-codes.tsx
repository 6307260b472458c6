import { FormActions, FormCard } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';

/**
 * Ten new recovery codes, shown this once: each signs in once in place of a
 * code from the app. The heading takes focus, so a screen reader starts here.
 */
export function RecoveryCodes({
  codes,
  doneLabel,
  onDone,
  frame = 'card',
}: {
  codes: string[];
  doneLabel: string;
  onDone: () => void;
  frame?: 'card' | 'plain';
}) {
  return (
    <FormCard title="Save your recovery codes" focusTitle frame={frame}>
      <p className="text-sm text-slate-800">
        If you lose your authenticator, each of these codes signs you in once in place of its code.
        Keep them somewhere safe, away from your phone: they are not shown again. New ones can be
        made from your account page, which ends these.
      </p>
      <ul
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-base text-slate-900 sm:w-fit"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <FormActions>
        <Button variant="primary" onClick={onDone}>
          {doneLabel}
        </Button>
      </FormActions>
    </FormCard>
  );
}
