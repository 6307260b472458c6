import { Link } from '@tanstack/react-router';

/** Back to the list: the detail and propose pages lead there alike. */
export function BackToBankAccounts() {
  return (
    <p>
      <Link
        to="/bank-accounts"
        className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
      >
        Back to bank accounts
      </Link>
    </p>
  );
}
