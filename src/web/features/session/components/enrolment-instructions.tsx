import { lazy, Suspense, useId } from 'react';
import type { SecondFactorEnrolment } from '#contract/auth.ts';

const QrCode = lazy(() =>
  import('../../../components/qr-code.tsx').then((m) => ({ default: m.QrCode })),
);

/** The key in groups of four, as authenticator apps show and take it. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * How to add the new key to an authenticator app: a QR code to scan, the
 * key itself as text (for typing it in, and for screen readers), and the
 * otpauth link an app on this device may open.
 */
export function EnrolmentInstructions({ enrolment }: { enrolment: SecondFactorEnrolment }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-3 text-sm text-slate-800">
      <ol className="list-decimal space-y-1 pl-5">
        <li>
          In an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password,
          FreeOTP…), add an account: scan the QR code, or type the key below.
        </li>
        <li>Enter the 6-digit code the app then shows for Custody Console.</li>
      </ol>
      <div className="flex flex-wrap items-start gap-4">
        <Suspense fallback={<div className="size-48" aria-hidden="true" />}>
          <QrCode
            value={enrolment.otpauthUri}
            label="QR code of the key, for an authenticator app"
          />
        </Suspense>
        <div className="flex min-w-0 flex-col gap-1">
          <p id={`${id}-key`} className="font-medium text-slate-900">
            Key (time-based, 6 digits, every 30 seconds)
          </p>
          <code
            aria-labelledby={`${id}-key`}
            data-testid="second-factor-key"
            className="rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-base tracking-wide break-all text-slate-900 select-all"
          >
            {grouped(enrolment.secret)}
          </code>
          <a
            href={enrolment.otpauthUri}
            className="text-blue-800 underline hover:text-blue-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            Open in an authenticator app on this device
          </a>
        </div>
      </div>
    </div>
  );
}
