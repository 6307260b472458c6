import { createFileRoute, useRouter } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { SSO_REFUSALS } from '#contract/sso-refusals.ts';
import { PlainLayout } from '../components/layout/app-layout.tsx';
import { LoginPage } from '../features/session/components/login-page.tsx';
import { safeRedirect } from '../lib/safe-redirect.ts';

export const Route = createFileRoute('/login')({
  // Kept as typed; safeRedirect decides whether it may be followed.
  validateSearch: z.object({
    redirect: z.catch(z.optional(z.string().check(z.maxLength(4096))), undefined),
    // Set when a session ended mid-use: under a read, or under something sent (send-to-login.ts).
    ended: z.catch(z.optional(z.enum(['read', 'send'])), undefined),
    // Set when a single sign-on came back refused (server/auth/sso/sign-in.routes.ts).
    sso: z.catch(z.optional(z.enum(SSO_REFUSALS)), undefined),
  }),
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect, ended, sso } = Route.useSearch();
  const router = useRouter();
  return (
    <PlainLayout>
      <LoginPage
        ended={ended}
        sso={sso}
        returnTo={safeRedirect(redirect)}
        onSignedIn={() => void router.navigate({ href: safeRedirect(redirect), replace: true })}
      />
    </PlainLayout>
  );
}
