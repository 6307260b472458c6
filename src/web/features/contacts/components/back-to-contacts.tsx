import { Link } from '@tanstack/react-router';

/** The link above a contact's page and the propose form, back to the list. */
export function BackToContacts() {
  return (
    <p>
      <Link
        to="/contacts"
        className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
      >
        Back to the address book
      </Link>
    </p>
  );
}
