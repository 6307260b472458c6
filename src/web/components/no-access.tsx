import { Link } from '@tanstack/react-router';

/** A page the member's role may not open: say so plainly, and offer a way on. */
export function NoAccess({ title }: { title: string }) {
  return (
    <section aria-labelledby="no-access-title" className="py-12">
      <title>{`No access · Custody Console`}</title>
      <h1 id="no-access-title" className="text-2xl font-semibold text-slate-900">
        You don&apos;t have access to {title}
      </h1>
      <p className="mt-2 text-slate-700">
        Your role does not include this page. Ask an administrator if you need it.
      </p>
      <p className="mt-4">
        <Link
          to="/transactions"
          className="font-medium text-blue-800 underline hover:text-blue-900"
        >
          Go to transactions
        </Link>
      </p>
    </section>
  );
}
