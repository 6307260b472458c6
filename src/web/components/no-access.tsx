import { DeadEnd } from './route-fallbacks.tsx';

/** A page the member's role may not open: say so plainly, and offer a way on. */
export function NoAccess({ title }: { title: string }) {
  return (
    <DeadEnd id="no-access" documentTitle="No access" heading={`You don't have access to ${title}`}>
      Your role does not include this page. Ask an administrator if you need it.
    </DeadEnd>
  );
}
