import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { PlainLayout } from '../components/layout/app-layout.tsx';
import { NotFound } from '../components/route-fallbacks.tsx';
import type { RouterContext } from '../router.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: () => (
    <PlainLayout>
      <NotFound />
    </PlainLayout>
  ),
});
