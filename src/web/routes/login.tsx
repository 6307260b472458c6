import { createFileRoute, useRouter } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { PlainLayout } from '../components/layout/app-layout.tsx';
import { LoginPage } from '../features/session/components/login-page.tsx';
import { safeRedirect } from '../lib/safe-redirect.ts';

export const Route = createFileRoute('/login')({
  // Kept as typed; safeRedirect decides whether it may be followed.
  validateSearch: z.object({
    redirect: z.catch(z.optional(z.string().check(z.maxLength(4096))), undefined),
  }),
  component: LoginRoute,
});

function LoginRoute() {
  const { redirect } = Route.useSearch();
  const router = useRouter();
  return (
    <PlainLayout>
      <LoginPage
        onSignedIn={() => void router.navigate({ href: safeRedirect(redirect), replace: true })}
      />
    </PlainLayout>
  );
}
