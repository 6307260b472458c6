import { createFileRoute, useRouter } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-layout.tsx';
import { SetupPage } from '../features/session/components/setup-page.tsx';

export const Route = createFileRoute('/setup')({ component: SetupRoute });

function SetupRoute() {
  const router = useRouter();
  return (
    <PlainLayout>
      <SetupPage onDone={() => void router.navigate({ to: '/login', replace: true })} />
    </PlainLayout>
  );
}
