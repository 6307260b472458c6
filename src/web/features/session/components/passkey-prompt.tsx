import { Link } from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import type { SessionResponse } from '#contract/auth.ts';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';

/** Put off for one session: the key names the member and that session's end, so a new sign-in asks again. */
const dismissedKey = (session: SessionResponse) =>
  `passkey-prompt-dismissed:${session.member.id}:${session.expiresAt}`;

function readDismissed(key: string): boolean {
  try {
    return sessionStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

// This tab's "Not now": the prompt re-reads storage when it is pressed.
const listeners = new Set<() => void>();
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The reminder approvers and admins see on every page until they register a
 * passkey (the server says whom: `askForPasskey`, STAFF_PASSKEY_PROMPT). Not
 * a block: "Not now" hides it for the rest of this session.
 */
export function PasskeyPrompt({ session }: { session: SessionResponse | undefined }) {
  const key = session ? dismissedKey(session) : null;
  // The server's page cannot know what this tab put off: shown there, hidden once hydrated.
  const dismissed = useSyncExternalStore(
    subscribe,
    () => (key ? readDismissed(key) : false),
    () => false,
  );
  if (!session?.askForPasskey || !key || dismissed) return null;
  const dismiss = () => {
    try {
      sessionStorage.setItem(key, '1');
    } catch {
      // Storage refused (private mode): it stays.
    }
    for (const listener of listeners) listener();
  };
  return (
    <section
      aria-labelledby="passkey-prompt-title"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900"
    >
      <div>
        <h2 id="passkey-prompt-title" className="font-semibold">
          Register a passkey
        </h2>
        <p>
          You approve what moves money: add a passkey or security key to your account, so signing in
          takes your device as well as your password.
        </p>
      </div>
      <div className="flex gap-2">
        <Link to="/account" className={buttonVariants({ variant: 'primary' })}>
          Add a passkey
        </Link>
        <Button variant="ghost" onClick={dismiss}>
          Not now
        </Button>
      </div>
    </section>
  );
}
