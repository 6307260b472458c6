import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { AppLayout } from '../components/layout/app-layout.tsx';
import { NotFound } from '../components/route-fallbacks.tsx';
import type { RouterContext } from '../router.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function RootLayout() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
