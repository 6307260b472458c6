import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

const navLinkClass =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white aria-[current=page]:bg-slate-700 aria-[current=page]:text-white';

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50 text-slate-900">
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-4 py-2 font-medium text-blue-800 focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-blue-700"
      >
        Skip to content
      </a>
      <header className="bg-slate-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-6 px-4 py-3">
          <Link
            to="/transactions"
            className="flex items-center gap-2 font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            <img src="/favicon.svg" alt="" width={24} height={24} />
            Custody Console
          </Link>
          <nav aria-label="Main">
            <ul className="flex gap-1">
              <li>
                <Link to="/transactions" className={navLinkClass}>
                  Transactions
                </Link>
              </li>
              <li>
                <Link to="/bank-accounts" className={navLinkClass}>
                  Bank accounts
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-6 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
